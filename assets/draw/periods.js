/**
 * The period a dated value stands for. Figures are dated the last day of their period: 31 December for a year,
 * the last day of the month for a month (or of its third month for a quarter). A chart draws each value at the
 * start of its period, which is where a time axis puts that period's tick ("2014" on 1 January 2014), so a value
 * dated 2014-12-31 sits on the 2014 tick — not a day before 2015's. Dates and ticks are UTC throughout.
 */

const isMonthEnd = (date) => d3.utcDay.offset(date, 1).getUTCDate() === 1;
const year = (date) => String(date.getUTCFullYear());
const month = d3.utcFormat('%Y-%m');
const quarter = (date) => `${year(date)} Q${Math.floor(date.getUTCMonth() / 3) + 1}`;

/** Tick steps from the finest: the first that gives at most `most` ticks is used. */
const YEARS = [1, 2, 5, 10, 20, 50].map((n) => d3.utcYear.every(n));
const MONTHS = [1, 2, 3, 6].map((n) => d3.utcMonth.every(n));

const PERIODS = {
  year: { start: (date) => d3.utcYear.floor(date), label: year, steps: YEARS },
  quarter: {
    start: (date) => d3.utcMonth.offset(d3.utcMonth.floor(date), -2),
    label: quarter,
    steps: [d3.utcMonth.every(3), ...YEARS],
  },
  month: { start: (date) => d3.utcMonth.floor(date), label: month, steps: [...MONTHS, ...YEARS] },
  day: { start: (date) => date, label: d3.utcFormat('%Y-%m-%d'), steps: null },
};

/** The kind of period of a chart's dates: years when all are 31 December, quarters or months when all end one. */
function kindOf(dates) {
  const known = dates.filter((d) => d instanceof Date && !Number.isNaN(+d));
  if (known.length === 0 || !known.every(isMonthEnd)) return 'day';
  const months = new Set(known.map((d) => d.getUTCMonth()));
  if (months.size === 1 && months.has(11)) return 'year';
  if ([...months].every((m) => m % 3 === 2)) return 'quarter';
  return 'month';
}

/**
 * The period of a chart's dates: `start(date)` where to draw a value, `label(date)` its period in words, and
 * `axis(axis, scale, most)` a time axis whose ticks (at most `most`) are period starts, each labelled as such.
 */
export function periodOf(dates) {
  const kind = kindOf(dates);
  const period = PERIODS[kind];
  return {
    kind,
    start: period.start,
    label: period.label,
    axis(axis, scale, most) {
      if (!period.steps) return axis.ticks(most);
      const ticks =
        period.steps.map((step) => scale.ticks(step)).find((t) => t.length <= most) ?? scale.ticks(YEARS.at(-1));
      const yearly = ticks.every((t) => t.getUTCMonth() === 0);
      return axis.tickValues(ticks).tickFormat(yearly ? year : kind === 'quarter' ? quarter : month);
    },
  };
}
