/*
 * cmd_chart.h -- the verb `adams chart` (cmd_chart.c): the Adams chart of a
 * module at any prime as an SVG picture with h_0, h_1, h_2 structure lines
 * (a_0, h_0 at odd p), or its data as JSON (docs/charts.md).
 */
#ifndef CMD_CHART_H
#define CMD_CHART_H

/* Runs `adams chart` with argv[0] = "chart" and argv[1..argc-1] its
 * arguments (`adams chart --help` lists them).  Writes the chart to stdout
 * or the file of -o, notes and progress to stderr.  Returns the exit code:
 * 0 success, 1 the output could not be written, 2 a bad argument or a
 * region that cannot be resolved (cli.h's CLI_OK, CLI_FAIL, CLI_USAGE). */
int cmd_chart(int argc, char **argv);

#endif /* CMD_CHART_H */
