/* Temporary weak definitions so the library links while loaders/writers are
 * being written in parallel; each is overridden by the real (strong) one.
 * TO BE REMOVED once every loader has landed. */
#include <stdio.h>

#include "fabriclint/write.h"
#include "loaders.h"

#define WEAK __attribute__((weak))
WEAK int fl_load_ibnetdiscover(fl_fabric *f, const char *p,
                               const fl_load_options *o, fl_error *e) {
  (void)f, (void)o;
  return fl_error_set(e, FL_EINVAL, p, 0, 0, "ibnetdiscover loader not built");
}
WEAK int fl_load_ibnd_ports(fl_fabric *f, const char *p,
                            const fl_load_options *o, fl_error *e) {
  (void)f, (void)o;
  return fl_error_set(e, FL_EINVAL, p, 0, 0, "ports loader not built");
}
WEAK int fl_load_ibsim_net(fl_fabric *f, const char *p,
                           const fl_load_options *o, fl_error *e) {
  (void)f, (void)o;
  return fl_error_set(e, FL_EINVAL, p, 0, 0, "ibsim loader not built");
}
WEAK int fl_load_design_xml(fl_fabric *f, const char *p,
                            const fl_load_options *o, fl_error *e) {
  (void)f, (void)o;
  return fl_error_set(e, FL_EINVAL, p, 0, 0, "design loader not built");
}
WEAK int fl_write_design_xml(const fl_fabric *f, FILE *o, fl_error *e) {
  (void)f, (void)o;
  return fl_error_set(e, FL_EINVAL, NULL, 0, 0, "not built");
}
WEAK int fl_write_ibnetdiscover(const fl_fabric *f, FILE *o, fl_error *e) {
  (void)f, (void)o;
  return fl_error_set(e, FL_EINVAL, NULL, 0, 0, "not built");
}
WEAK int fl_write_ibsim_net(const fl_fabric *f, FILE *o, fl_error *e) {
  (void)f, (void)o;
  return fl_error_set(e, FL_EINVAL, NULL, 0, 0, "not built");
}
WEAK int fl_load_annotations(fl_fabric *f, const char *p,
                             const fl_load_options *o, fl_error *e) {
  (void)f, (void)o;
  return fl_error_set(e, FL_EINVAL, p, 0, 0, "annotation loader not built");
}
WEAK int fl_load_ar(fl_fabric *f, const char *p, const fl_load_options *o,
                    fl_error *e) {
  (void)f, (void)o;
  return fl_error_set(e, FL_EINVAL, p, 0, 0, "AR loader not built");
}
