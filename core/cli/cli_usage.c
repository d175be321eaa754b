/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_usage.c — the table of cli_table.h rendered as --help text,
 * man page (roff, man(7) macros) and bash and zsh completion scripts.
 *
 * The value lists come from where the values are defined: --format names
 * from the report writer registry (core/report/writers.c), --input-format
 * names from the loaders' format table (fl_format_name()), gen kinds and
 * fixed lists from the table. Rule ids depend on the plugins found at run
 * time, so the completion scripts ask the fabriclint being completed
 * (`fabriclint help --list rules`).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_table.h"
#include "cli/cli_usage.h"
#include "fabriclint/load.h"
#include "report/report.h"

#define WIDTH    79 /* columns of help text */
#define HELP_COL 29 /* where option help starts */

static const char OPERANDS_NOTE[] =
    "Options may come before or after the arguments; -- ends the options "
    "(fabriclint check -- -x reads a file named -x), and - is standard "
    "input.";

/* ---- value lists -------------------------------------------------------- */

/* Append @word to the space-separated list @buf (@size bytes). */
static void add_word(char *buf, size_t size, const char *word) {
  size_t n = strlen(buf);
  snprintf(buf + n, size - n, "%s%s", n ? " " : "", word);
}

/* The values option @o takes, space-separated, into @buf; "" when free. */
static const char *values_of(const fl_cli_opt *o, char *buf, size_t size) {
  buf[0] = '\0';
  switch (o->complete) {
  case FL_CPL_REPORT:
    for (size_t i = 0; fl_report_format_name_at(i); i++)
      add_word(buf, size, fl_report_format_name_at(i));
    if (o->values)
      add_word(buf, size, o->values);
    break;
  case FL_CPL_INPUT_FORMAT:
    add_word(buf, size, "auto");
    for (size_t i = 0; fl_format_name_at(i); i++)
      add_word(buf, size, fl_format_name_at(i));
    break;
  case FL_CPL_KIND:
    for (const fl_cli_kind *k = FL_CLI_KINDS; k->name; k++)
      add_word(buf, size, k->name);
    break;
  case FL_CPL_COMMAND:
    for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++)
      add_word(buf, size, c->name);
    break;
  case FL_CPL_VALUES:
    add_word(buf, size, o->values ? o->values : "");
    break;
  default:
    break;
  }
  return buf;
}

/* Write the space-separated @list one word a line. */
static void put_lines(FILE *out, const char *list) {
  for (const char *s = list; *s;) {
    size_t n = strcspn(s, " ");
    fprintf(out, "%.*s\n", (int)n, s);
    s += n;
    s += *s == ' ';
  }
}

/* ---- --help text -------------------------------------------------------- */

/* Write @text word-wrapped; the cursor is at column @col, continuation
 * lines start at column @indent. Ends with a newline. */
static void wrap(FILE *out, const char *text, size_t col, size_t indent) {
  const char *s = text;
  int first = 1;
  while (*s) {
    size_t n = strcspn(s, " \n");
    if (!first && col + 1 + n > WIDTH) {
      fprintf(out, "\n%*s", (int)indent, "");
      col = indent;
    } else if (!first) {
      fputc(' ', out);
      col++;
    }
    fprintf(out, "%.*s", (int)n, s);
    col += n;
    first = 0;
    s += n;
    if (*s == '\n' && s[1] == '\n') { /* a paragraph break */
      fprintf(out, "\n\n%*s", (int)indent, "");
      col = indent;
      first = 1;
    }
    while (*s == ' ' || *s == '\n')
      s++;
  }
  fputc('\n', out);
}

/* "  -o, --output FILE" then the help at HELP_COL (next line when long). */
static void help_option(FILE *out, const fl_cli_opt *o) {
  char left[96];
  int n = o->short_name
              ? snprintf(left, sizeof left, "  -%c, --%s%s%s", o->short_name,
                         o->name, o->arg ? " " : "", o->arg ? o->arg : "")
              : snprintf(left, sizeof left, "  --%s%s%s", o->name,
                         o->arg ? " " : "", o->arg ? o->arg : "");
  fputs(left, out);
  if (n >= HELP_COL - 1) {
    fprintf(out, "\n%*s", HELP_COL, "");
  } else {
    fprintf(out, "%*s", HELP_COL - n, "");
  }
  wrap(out, o->help, HELP_COL, HELP_COL);
}

static void help_exit_codes(FILE *out) {
  fputs("\nexit codes:\n", out);
  for (const fl_cli_note *e = FL_CLI_EXIT; e->name; e++) {
    fprintf(out, "  %s  ", e->name);
    wrap(out, e->text, 5, 5);
  }
}

int fl_cli_usage(FILE *out) {
  fputs("usage: fabriclint COMMAND [OPTIONS] [ARGS]\n\n", out);
  fprintf(out, "fabriclint: %s.\n\ncommands:\n", FL_CLI_ABOUT);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++) {
    char left[96];
    int n = snprintf(left, sizeof left, "  %s %s", c->name, c->synopsis);
    fputs(left, out);
    if (n >= HELP_COL - 1)
      fprintf(out, "\n%*s", HELP_COL, "");
    else
      fprintf(out, "%*s", HELP_COL - n, "");
    wrap(out, c->summary, HELP_COL, HELP_COL);
  }
  fputc('\n', out);
  wrap(out, OPERANDS_NOTE, 0, 0);
  fputs("\noptions of check (fabriclint COMMAND --help lists those of "
        "COMMAND):\n",
        out);
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
    if (o->cmds & FL_CMD_CHECK)
      help_option(out, o);
  help_exit_codes(out);
  return ferror(out) ? -1 : 0;
}

/* gen: the options of each kind, then those of every kind. */
static void help_gen_options(FILE *out) {
  for (const fl_cli_kind *k = FL_CLI_KINDS; k->name; k++) {
    fprintf(out, "\nKIND %s: %s\n", k->name, k->summary);
    for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
      if ((o->cmds & FL_CMD_GEN) && (o->kinds & k->bit))
        help_option(out, o);
  }
  fputs("\noptions of every kind:\n", out);
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
    if ((o->cmds & FL_CMD_GEN) && o->kinds == 0)
      help_option(out, o);
}

int fl_cli_usage_cmd(FILE *out, const fl_cli_cmd *cmd) {
  fprintf(out, "usage: fabriclint %s %s\n\n", cmd->name, cmd->synopsis);
  wrap(out, cmd->description, 0, 0);
  if (cmd->bit == FL_CMD_GEN) {
    help_gen_options(out);
  } else {
    fputs("\noptions:\n", out);
    for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
      if (o->cmds & cmd->bit)
        help_option(out, o);
  }
  fputc('\n', out);
  wrap(out, OPERANDS_NOTE, 0, 0);
  help_exit_codes(out);
  return ferror(out) ? -1 : 0;
}

/* ---- man page ----------------------------------------------------------- */

/* Roff text: backslashes and minus signs escaped; a line never starts with
 * a control character; paragraphs ("\n\n") become @para (".PP", or ".IP"
 * inside the indented body of a .TP). */
static void roff_para(FILE *out, const char *s, const char *para) {
  int bol = 1;
  for (; *s; s++) {
    if (bol && (*s == '.' || *s == '\''))
      fputs("\\&", out);
    bol = 0;
    if (*s == '\\')
      fputs("\\e", out);
    else if (*s == '-')
      fputs("\\-", out);
    else if (*s == '\n' && s[1] == '\n') {
      fprintf(out, "\n%s\n", para);
      s++;
      bol = 1;
    } else if (*s == '\n') {
      fputc(' ', out);
    } else
      fputc(*s, out);
  }
}

static void roff(FILE *out, const char *s) {
  roff_para(out, s, ".IP");
}

/* ".TP" and the option's tag: \fB\-o\fR, \fB\-\-output\fR \fIFILE\fR */
static void man_option(FILE *out, const fl_cli_opt *o, int with_cmds) {
  fputs(".TP\n", out);
  if (o->short_name)
    fprintf(out, "\\fB\\-%c\\fR, ", o->short_name);
  fputs("\\fB\\-\\-", out);
  roff(out, o->name);
  fputs("\\fR", out);
  if (o->arg) {
    fputs(" \\fI", out);
    roff(out, o->arg);
    fputs("\\fR", out);
  }
  fputc('\n', out);
  char cmds[128];
  roff(out, o->help);
  if (with_cmds && (o->cmds & FL_CMD_SHARED) != FL_CMD_SHARED) {
    fputs(" (for ", out);
    roff(out, fl_cli_cmds_text(o->cmds, cmds, sizeof cmds));
    fputc(')', out);
  }
  fputs(".\n", out);
}

static void man_notes(FILE *out, const char *section, const fl_cli_note *notes,
                      int bold) {
  fprintf(out, ".SH %s\n", section);
  for (const fl_cli_note *n = notes; n->name; n++) {
    fputs(".TP\n", out);
    fputs(bold ? "\\fB" : "", out);
    roff(out, n->name);
    fputs(bold ? "\\fR\n" : "\n", out);
    roff(out, n->text);
    fputs(".\n", out);
  }
}

static void man_head(FILE *out) {
  fprintf(out,
          ".\\\" fabriclint.1 - generated by `fabriclint help --man` from the "
          "command-line table\n.\\\" (core/cli/cli_table.c); do not edit.\n"
          ".TH FABRICLINT 1 \"\" \"fabriclint %s\" \"User Commands\"\n"
          ".nh\n.ad l\n"
          ".SH NAME\nfabriclint \\- ",
          FL_VERSION);
  roff(out, FL_CLI_ABOUT);
  fputs("\n.SH SYNOPSIS\n", out);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++) {
    fprintf(out, "\\fBfabriclint %s\\fR ", c->name);
    roff(out, c->synopsis);
    fputs("\n.br\n", out);
  }
  fputs("\\fBfabriclint \\-\\-version\\fR | \\fB\\-\\-help\\fR\n", out);
  fputs(".SH DESCRIPTION\n", out);
  roff_para(
      out,
      "fabriclint validates the network fabrics of GPU clusters "
      "(InfiniBand HDR/NDR/XDR and RoCEv2 Ethernet) before and after they "
      "are built. It loads fabric descriptions (ibnetdiscover dumps, "
      "fabriclint design XML, IBDM topology files, lldpd and Junos LLDP "
      "XML, Cisco cable plans) and routing state (OpenSM LFT, fdbs, SL2VL "
      "and path-SL dumps, ibdiagnet AR tables) into one model and runs "
      "rule plugins on it: topology, deadlock (credit loops), "
      "rail-alignment, ecmp-balance, adaptive-routing and "
      "failure-domains. Findings are written as text, JSON, SARIF, JUnit "
      "XML or GitLab Code Quality.\n\n",
      ".PP");
  roff(out, OPERANDS_NOTE);
  fputc('\n', out);
}

int fl_cli_man(FILE *out) {
  man_head(out);
  fputs(".SH COMMANDS\n", out);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++) {
    fprintf(out, ".TP\n\\fBfabriclint %s\\fR ", c->name);
    roff(out, c->synopsis);
    fputc('\n', out);
    roff(out, c->description);
    fputc('\n', out);
  }
  fputs(".SH OPTIONS\nOptions of check, info, rules, explain, diff, perf and "
        "convert (and of gen and help where said).\n",
        out);
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
    if (o->cmds & FL_CMD_SHARED)
      man_option(out, o, 1);
  fputs(".SH \"GEN KINDS\"\n", out);
  for (const fl_cli_kind *k = FL_CLI_KINDS; k->name; k++) {
    fprintf(out, ".SS \"%s\"\n", k->name);
    roff(out, k->summary);
    fputs(".\n", out);
    for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
      if ((o->cmds & FL_CMD_GEN) && (o->kinds & k->bit))
        man_option(out, o, 0);
  }
  fputs(".SS \"every kind\"\n", out);
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
    if ((o->cmds & FL_CMD_GEN) && o->kinds == 0)
      man_option(out, o, 0);
  fputs(".SH \"HELP OPTIONS\"\n", out);
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
    if (o->cmds == FL_CMD_HELP)
      man_option(out, o, 0);
  man_notes(out, "ENVIRONMENT", FL_CLI_ENV, 1);
  man_notes(out, "\"EXIT STATUS\"", FL_CLI_EXIT, 1);
  man_notes(out, "EXAMPLES", FL_CLI_EXAMPLES, 1);
  fputs(".SH FILES\n.TP\n\\fIplugins/\\fR, "
        "\\fI../lib/fabriclint/plugins/\\fR\n",
        out);
  roff(out, "the built-in rule plugins, beside the executable or under the "
            "install prefix; design XML schema under "
            "share/fabriclint/schema.");
  fputs("\n.SH \"SEE ALSO\"\n.BR ibnetdiscover (8),\n.BR opensm (8),\n"
        ".BR ibsim (1),\n.BR lldpcli (8)\n",
        out);
  return ferror(out) ? -1 : 0;
}

/* ---- bash completion ---------------------------------------------------- */

/* The words of a shell case pattern matching option @o ("--format" or
 * "-o|--output"), for command @cmd. */
static void bash_pattern(FILE *out, const char *cmd, const fl_cli_opt *o) {
  if (o->short_name)
    fprintf(out, "\"%s -%c\"|", cmd, o->short_name);
  fprintf(out, "\"%s --%s\"", cmd, o->name);
}

/* The completion of the value of @o, as shell code. */
static void bash_value(FILE *out, const fl_cli_opt *o) {
  char buf[1024];
  switch (o->complete) {
  case FL_CPL_FILE:
    fputs("_fabriclint_files \"$cur\"", out);
    break;
  case FL_CPL_DIR:
    fputs("_fabriclint_dirs \"$cur\"", out);
    break;
  case FL_CPL_RULES:
    fputs("_fabriclint_list rules \"$cur\" ,", out);
    break;
  case FL_CPL_PARAM:
    fputs("_fabriclint_list params \"$cur\"", out);
    break;
  case FL_CPL_NONE:
    fputs("COMPREPLY=()", out);
    break;
  default:
    fprintf(out, "_fabriclint_words '%s' \"$cur\"",
            values_of(o, buf, sizeof buf));
    if (o->id == FL_OPT_RULES) /* diff --rules: a comma-separated list */
      fputs(" ,", out);
  }
}

static const char BASH_HELPERS[] =
    "_fabriclint_words() { # WORDS CUR [SEP]: complete CUR from WORDS\n"
    "  local cur=$2 pre=\n"
    "  if [[ -n ${3-} && $cur == *\"$3\"* ]]; then\n"
    "    pre=${cur%\"$3\"*}$3\n"
    "    cur=${cur##*\"$3\"}\n"
    "  fi\n"
    "  local IFS=$' \\t\\n'\n"
    "  COMPREPLY=($(compgen -P \"$pre\" -W \"$1\" -- \"$cur\"))\n"
    "}\n"
    "_fabriclint_files() {\n"
    "  local IFS=$'\\n'\n"
    "  COMPREPLY=($(compgen -f -- \"$1\"))\n"
    "  compopt -o filenames 2>/dev/null\n"
    "}\n"
    "_fabriclint_dirs() {\n"
    "  local IFS=$'\\n'\n"
    "  COMPREPLY=($(compgen -d -- \"$1\"))\n"
    "  compopt -o filenames 2>/dev/null\n"
    "}\n"
    "# WHAT CUR [SEP]: names the fabriclint being completed lists (rule ids\n"
    "# of its plugins, parameters), with the plugin options of the line\n"
    "_fabriclint_list() {\n"
    "  local exe=${COMP_WORDS[0]} i w\n"
    "  local -a plug=()\n"
    "  [[ $exe == */* ]] || exe=$(type -P \"$exe\") || return 0\n"
    "  for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do\n"
    "    w=${COMP_WORDS[i]}\n"
    "    case $w in\n"
    "      --plugin|--plugin-path) plug+=(\"$w\" \"${COMP_WORDS[i+1]-}\") ;;\n"
    "      --plugin=*|--plugin-path=*|--no-builtin-plugins) plug+=(\"$w\") "
    ";;\n"
    "    esac\n"
    "  done\n"
    "  _fabriclint_words \"$(\"$exe\" help --list \"$1\" \"${plug[@]}\" "
    "2>/dev/null)\" \"$2\" \"${3-}\"\n"
    "  [[ $1 != params ]] || compopt -o nospace 2>/dev/null\n"
    "}\n";

/* _fabriclint_takes_value CMD OPT: 0 when OPT takes a value in CMD;
 * _fabriclint_value CMD OPT CUR: complete the value of such an OPT. */
static void bash_value_fn(FILE *out) {
  fputs("_fabriclint_takes_value() {\n  case \"$1 $2\" in\n", out);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++)
    for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
      if ((o->cmds & c->bit) && o->arg) {
        fputs("    ", out);
        bash_pattern(out, c->name, o);
        fputs(") return 0 ;;\n", out);
      }
  fputs("  esac\n  return 1\n}\n", out);
  fputs("_fabriclint_value() {\n  local cur=$3\n  case \"$1 $2\" in\n", out);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++)
    for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++) {
      if (!(o->cmds & c->bit) || !o->arg)
        continue;
      fputs("    ", out);
      bash_pattern(out, c->name, o);
      fputs(") ", out);
      bash_value(out, o);
      fputs(" ;;\n", out);
    }
  fputs("    *) return 1 ;;\n  esac\n  return 0\n}\n", out);
}

/* _fabriclint_options CMD KIND: the options of CMD (of gen KIND). */
static void bash_options_fn(FILE *out) {
  fputs("_fabriclint_options() {\n  case \"$1\" in\n", out);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++) {
    if (c->bit == FL_CMD_GEN)
      continue;
    fprintf(out, "    %s) echo '", c->name);
    int first = 1;
    for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
      if (o->cmds & c->bit) {
        fprintf(out, "%s--%s", first ? "" : " ", o->name);
        first = 0;
      }
    fputs("' ;;\n", out);
  }
  fputs("    gen)\n      case \"$2\" in\n", out);
  for (const fl_cli_kind *k = FL_CLI_KINDS; k->name; k++) {
    fprintf(out, "        %s) echo '", k->name);
    int first = 1;
    for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
      if ((o->cmds & FL_CMD_GEN) && (!o->kinds || (o->kinds & k->bit))) {
        fprintf(out, "%s--%s", first ? "" : " ", o->name);
        first = 0;
      }
    fputs("' ;;\n", out);
  }
  fputs("        *) echo '--help' ;;\n      esac ;;\n  esac\n}\n", out);
}

static const char BASH_MAIN[] =
    "_fabriclint() {\n"
    "  local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= kind= i w n=0 ddash=\n"
    "  local cword=$COMP_CWORD\n"
    "  # --opt=value: bash splits at '=' (COMP_WORDBREAKS)\n"
    "  if [[ $cur == = ]]; then\n"
    "    cur=\n"
    "    prev=${COMP_WORDS[cword-1]}\n"
    "  elif ((cword > 1)) && [[ ${COMP_WORDS[cword-1]} == = ]]; then\n"
    "    prev=${COMP_WORDS[cword-2]}\n"
    "  elif ((cword > 0)); then\n"
    "    prev=${COMP_WORDS[cword-1]}\n"
    "  fi\n"
    "  if ((cword == 1)); then\n"
    "    _fabriclint_words \"$_fabriclint_commands --help --version\" "
    "\"$cur\"\n"
    "    return 0\n"
    "  fi\n"
    "  cmd=${COMP_WORDS[1]}\n"
    "  # operands so far (options and their values skipped) and, for gen,\n"
    "  # the kind\n"
    "  for ((i = 2; i < cword; i++)); do\n"
    "    w=${COMP_WORDS[i]}\n"
    "    if [[ $w == -- ]]; then\n"
    "      ddash=1 # the rest are operands\n"
    "      n=$((n + cword - i - 1))\n"
    "      break\n"
    "    elif [[ $w == -?* ]]; then\n"
    "      if [[ ${COMP_WORDS[i+1]-} == = ]]; then\n"
    "        ((i += 2))\n"
    "      elif [[ $w != *=* ]] && _fabriclint_takes_value \"$cmd\" "
    "\"$w\"; then\n"
    "        ((i++))\n"
    "      fi\n"
    "    elif [[ $w != = ]]; then\n"
    "      ((n++ == 0)) && [[ $cmd == gen ]] && kind=$w\n"
    "    fi\n"
    "  done\n"
    "  COMPREPLY=()\n"
    "  if [[ -z $ddash && $prev == -?* ]] && _fabriclint_value \"$cmd\" "
    "\"$prev\" "
    "\"$cur\"; then\n"
    "    return 0\n"
    "  fi\n"
    "  if [[ -z $ddash && $cur == -* ]]; then\n"
    "    _fabriclint_words \"$(_fabriclint_options \"$cmd\" \"$kind\")\" "
    "\"$cur\"\n"
    "    return 0\n"
    "  fi\n"
    "  case $cmd in\n";

/* The case arm completing the operands of @c (bash). */
static void bash_operands(FILE *out, const fl_cli_cmd *c) {
  fprintf(out, "    %s) ", c->name);
  switch (c->operands) {
  case FL_CPL_KIND:
    fputs("((n == 0)) && _fabriclint_words \"$_fabriclint_kinds\" \"$cur\"",
          out);
    break;
  case FL_CPL_COMMAND:
    fputs("((n == 0)) && _fabriclint_words \"$_fabriclint_commands\" "
          "\"$cur\"",
          out);
    break;
  case FL_CPL_RULES:
    fputs("_fabriclint_list rules \"$cur\"", out);
    break;
  case FL_CPL_NONE:
    fputs("COMPREPLY=()", out);
    break;
  default:
    fputs("_fabriclint_files \"$cur\"", out);
  }
  fputs(" ;;\n", out);
}

int fl_cli_completion_bash(FILE *out) {
  char buf[1024];
  fputs("# bash completion for fabriclint, generated by `fabriclint help "
        "--completion bash`\n# from its command-line table "
        "(core/cli/cli_table.c): do not edit.\n",
        out);
  fl_cli_opt cmd_row = {0, "", 0, NULL, 0, 0, FL_CPL_COMMAND, NULL, ""};
  fl_cli_opt kind_row = {0, "", 0, NULL, 0, 0, FL_CPL_KIND, NULL, ""};
  fprintf(out, "_fabriclint_commands='%s'\n",
          values_of(&cmd_row, buf, sizeof buf));
  fprintf(out, "_fabriclint_kinds='%s'\n",
          values_of(&kind_row, buf, sizeof buf));
  fputs(BASH_HELPERS, out);
  bash_value_fn(out);
  bash_options_fn(out);
  fputs(BASH_MAIN, out);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++)
    bash_operands(out, c);
  fputs("    *) _fabriclint_files \"$cur\" ;;\n  esac\n  return 0\n}\n"
        "complete -F _fabriclint fabriclint\n",
        out);
  return ferror(out) ? -1 : 0;
}

/* ---- zsh completion ----------------------------------------------------- */

/* Text for a zsh _arguments description: the help up to its first ';',
 * ':' or '(', with []:\' escaped, inside single quotes. */
static void zsh_desc(FILE *out, const char *help) {
  size_t n = strcspn(help, ";:(");
  if (n < 12) /* too short to say anything: up to the first ';' */
    n = strcspn(help, ";");
  while (n > 0 && help[n - 1] == ' ')
    n--;
  for (size_t i = 0; i < n && i < 70; i++) {
    char c = help[i];
    if (c == '\'')
      fputs("'\\''", out);
    else if (c == '[' || c == ']' || c == ':' || c == '\\')
      fprintf(out, "\\%c", c);
    else
      fputc(c, out);
  }
}

/* The _arguments action of @o's value. */
static void zsh_action(FILE *out, const fl_cli_opt *o) {
  char buf[1024];
  switch (o->complete) {
  case FL_CPL_FILE:
    fputs("_files", out);
    break;
  case FL_CPL_DIR:
    fputs("_files -/", out);
    break;
  case FL_CPL_RULES:
    fputs("_fabriclint_rules", out);
    break;
  case FL_CPL_PARAM:
    fputs("_fabriclint_params", out);
    break;
  case FL_CPL_NONE:
    fputs(" ", out);
    break;
  default:
    if (o->id == FL_OPT_RULES) /* diff --rules: comma-separated */
      fprintf(out, "_sequence compadd - %s", values_of(o, buf, sizeof buf));
    else
      fprintf(out, "(%s)", values_of(o, buf, sizeof buf));
  }
}

static int repeatable(const fl_cli_opt *o) {
  return o->id == FL_OPT_PARAM || o->id == FL_OPT_PLUGIN ||
         o->id == FL_OPT_PLUGIN_PATH || o->id == FL_OPT_DESIGN ||
         o->id == FL_OPT_AS_BUILT;
}

/* One _arguments spec of option @o, quoted, on its own line. */
static void zsh_spec(FILE *out, const fl_cli_opt *o) {
  const char *star = repeatable(o) ? "*" : "";
  fputs("    ", out);
  if (o->short_name)
    fprintf(out, "'(-%c --%s)'{%s-%c%s,%s--%s%s}'[", o->short_name, o->name,
            star, o->short_name, o->arg ? "+" : "", star, o->name,
            o->arg ? "=" : "");
  else
    fprintf(out, "'%s--%s%s[", star, o->name, o->arg ? "=" : "");
  zsh_desc(out, o->help);
  fputc(']', out);
  if (o->arg) {
    fputc(':', out);
    zsh_desc(out, o->arg);
    fputc(':', out);
    zsh_action(out, o);
  }
  fputs("'\n", out);
}

/* The array _fabriclint_opts_NAME of the specs of the options of command
 * @bit (for gen: of @kind bits, or of every kind when @kind is 0). */
static void zsh_array(FILE *out, const char *name, uint32_t bit,
                      uint32_t kind) {
  fprintf(out, "  local -a opts_%s\n  opts_%s=(\n", name, name);
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
    if ((o->cmds & bit) &&
        (bit != FL_CMD_GEN || o->kinds == kind || (kind && (o->kinds & kind))))
      zsh_spec(out, o);
  fputs("  )\n", out);
}

static const char ZSH_HELPERS[] =
    "_fabriclint_list() { # WHAT: names the fabriclint being completed "
    "lists\n"
    "  local -a plug\n"
    "  local i\n"
    "  for ((i = 2; i <= $#words; i++)); do\n"
    "    case $words[i] in\n"
    "      --plugin|--plugin-path) plug+=($words[i] ${words[i+1]}) ;;\n"
    "      --plugin=*|--plugin-path=*|--no-builtin-plugins) "
    "plug+=($words[i]) ;;\n"
    "    esac\n"
    "  done\n"
    "  _call_program $1 ${(q)_fabriclint_exe} help --list $1 ${(q)plug} "
    "2>/dev/null\n"
    "}\n"
    "_fabriclint_rules() {\n"
    "  local -a ids\n"
    "  ids=(${(f)\"$(_fabriclint_list rules)\"})\n"
    "  _sequence compadd -a ids\n"
    "}\n"
    "_fabriclint_params() {\n"
    "  local -a ps\n"
    "  ps=(${(f)\"$(_fabriclint_list params)\"})\n"
    "  compadd -S '' -a ps\n"
    "}\n";

/* The case arm of command @c in _fabriclint (zsh): its options and how its
 * operands complete; gen's options depend on the kind given. */
static void zsh_operands(FILE *out, const fl_cli_cmd *c, const char *cmds,
                         const char *kinds) {
  if (c->operands != FL_CPL_KIND) {
    fprintf(out, "        %s) _arguments -s -S $opts_%s", c->name, c->name);
    if (c->operands == FL_CPL_COMMAND)
      fprintf(out, " '1:command:(%s)'", cmds);
    else if (c->operands == FL_CPL_RULES)
      fputs(" '*:rule:_fabriclint_rules'", out);
    else if (c->operands != FL_CPL_NONE)
      fputs(" '*:input:_files'", out);
    fputs(" && ret=0 ;;\n", out);
    return;
  }
  fprintf(out,
          "        %s)\n"
          "          for w in $words[2,CURRENT-1]; do\n"
          "            [[ $w == -* ]] && continue\n"
          "            (( ${kinds[(I)$w]} )) && kind=${w//-/_} && break\n"
          "          done\n"
          "          [[ -n $kind ]] && kind_opts=(${(P)${:-opts_gen_$kind}})\n"
          "          _arguments -s -S $opts_gen $kind_opts '1:kind:(%s)' && "
          "ret=0 ;;\n",
          c->name, kinds);
}

/* The body of _fabriclint after its option arrays. */
static void zsh_main(FILE *out, const char *cmds, const char *kinds) {
  fputs("  _arguments -C '(- *)--help[this help]' '(- *)--version[print the "
        "version]' \\\n"
        "    '1:command:->command' '*::argument:->argument' && ret=0\n"
        "  case $state in\n"
        "    command) _describe -t commands 'fabriclint command' commands "
        "&& ret=0 ;;\n"
        "    argument)\n"
        "      curcontext=${curcontext%:*:*}:fabriclint-$words[1]:\n"
        "      case $words[1] in\n",
        out);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++)
    zsh_operands(out, c, cmds, kinds);
  fputs("      esac ;;\n"
        "  esac\n"
        "  return ret\n"
        "}\n"
        "_fabriclint \"$@\"\n",
        out);
}

int fl_cli_completion_zsh(FILE *out) {
  char cmds[512], kinds[512];
  fl_cli_opt cmd_row = {0, "", 0, NULL, 0, 0, FL_CPL_COMMAND, NULL, ""};
  fl_cli_opt kind_row = {0, "", 0, NULL, 0, 0, FL_CPL_KIND, NULL, ""};
  values_of(&cmd_row, cmds, sizeof cmds);
  values_of(&kind_row, kinds, sizeof kinds);
  fputs("#compdef fabriclint\n# zsh completion for fabriclint, generated by "
        "`fabriclint help --completion zsh`\n# from its command-line table "
        "(core/cli/cli_table.c): do not edit.\n",
        out);
  fputs(ZSH_HELPERS, out);
  fputs("_fabriclint() {\n"
        "  local curcontext=$curcontext state line ret=1 kind w\n"
        "  local _fabriclint_exe=$words[1]\n"
        "  local -a commands kinds kind_opts\n"
        "  commands=(\n",
        out);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++) {
    fprintf(out, "    '%s:", c->name);
    zsh_desc(out, c->summary);
    fputs("'\n", out);
  }
  fprintf(out, "  )\n  kinds=(%s)\n", kinds);
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++)
    if (c->bit != FL_CMD_GEN)
      zsh_array(out, c->name, c->bit, 0);
  zsh_array(out, "gen", FL_CMD_GEN, 0);
  for (const fl_cli_kind *k = FL_CLI_KINDS; k->name; k++) {
    char name[64];
    snprintf(name, sizeof name, "gen_%s", k->name);
    for (char *p = name; *p; p++)
      *p = *p == '-' ? '_' : *p;
    zsh_array(out, name, FL_CMD_GEN, k->bit);
  }
  zsh_main(out, cmds, kinds);
  return ferror(out) ? -1 : 0;
}

/* ---- lists -------------------------------------------------------------- */

int fl_cli_list_static(FILE *out, const char *what, const fl_cli_cmd *cmd) {
  char buf[2048];
  fl_cli_opt row = {0, "", 0, NULL, 0, 0, FL_CPL_NONE, NULL, ""};
  if (strcmp(what, "commands") == 0) {
    row.complete = FL_CPL_COMMAND;
  } else if (strcmp(what, "kinds") == 0) {
    row.complete = FL_CPL_KIND;
  } else if (strcmp(what, "input-formats") == 0) {
    row.complete = FL_CPL_INPUT_FORMAT;
  } else if (strcmp(what, "formats") == 0) {
    const fl_cli_opt *o = NULL;
    for (const fl_cli_opt *p = FL_CLI_OPTS; p->name && !o; p++)
      if (p->id == FL_OPT_FORMAT && (p->cmds & cmd->bit))
        o = p;
    if (o)
      row = *o;
  } else if (strcmp(what, "options") == 0) {
    buf[0] = '\0';
    for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
      if (o->cmds & cmd->bit)
        fprintf(out, "--%s\n", o->name);
    for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
      if ((o->cmds & cmd->bit) && o->short_name)
        fprintf(out, "-%c\n", o->short_name);
    return ferror(out) ? -1 : 0;
  } else {
    return 1;
  }
  put_lines(out, values_of(&row, buf, sizeof buf));
  return ferror(out) ? -1 : 0;
}
