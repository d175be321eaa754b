/* core/model/natcmp.h — natural order of names, for every stage that sorts
 * names people read (planes, pictures' rows and columns). */
#ifndef FL_MODEL_NATCMP_H
#define FL_MODEL_NATCMP_H

/* Compares two NUL-terminated names in natural order: runs of digits
 * compare by value ("2" < "10", "leaf-9" < "leaf-10"; leading zeros beyond
 * one are ignored), other bytes as unsigned chars. Returns <0, 0 or >0 as
 * strcmp does. Neither argument may be NULL. */
int fl_natcmp(const char *a, const char *b);

#endif
