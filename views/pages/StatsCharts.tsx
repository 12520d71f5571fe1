import type { CSSProperties } from "react";

/*
 * The charts of /d/stats, drawn by the server as HTML and CSS (no client code): sizes are in CSS
 * pixels, not scaled with the page, so one bar of a single day's data stays a bar (at most 56 px
 * wide, 150 px high) and labels keep their font size on a phone and a wide screen alike. Styles:
 * assets/stats.css.
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-06-01" → "Jun 1". */
export const shortDate = (date: string) => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}`;

export interface Bar {
  key: string;
  value: number;
  label: string;
  title: string;
  highlight?: boolean;
}

/** More bars than this (days, weeks) are narrow: a label every fifth (tenth, on a phone), values on wide screens only. */
const MANY_BARS = 12;

/**
 * Vertical bars on a fixed-height plot, the largest value (or `max`, e.g. 100 for percentages)
 * marked at the top. Many bars share the width down to a minimum each, then scroll sideways.
 */
/** Which labels of many bars show (stats.css): every fifth, every tenth on a narrow screen. */
const labelClass = (i: number) =>
  ["bar-label", i === 0 && "bar-label-first", i % 5 === 0 && "every-5", i % 10 === 0 && "every-10"].filter(Boolean).join(" ");

export function BarChart({ label, bars, max, unit = "" }: { label: string; bars: Bar[]; max?: number; unit?: string }) {
  const top = Math.max(1, max ?? 0, ...bars.map((b) => b.value));
  const many = bars.length > MANY_BARS;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide chart scrolls sideways; focusable, a keyboard scrolls it too.
    <figure className={`stats-chart${many ? " many-bars" : ""}`} tabIndex={0} aria-label={label}>
      <div className="bar-chart" role="img" aria-label={label} style={{ "--bars": bars.length } as CSSProperties}>
        <span className="bar-axis" aria-hidden="true">
          {top}
          {unit}
        </span>
        {bars.map((bar, i) => (
          <div key={bar.key} className="bar-column" title={bar.title}>
            <span className="bar-value">{bar.value > 0 ? `${bar.value}${unit}` : ""}</span>
            <div className="bar-track">
              {bar.value > 0 && (
                <div
                  className={bar.highlight ? "bar bar-highlight" : "bar"}
                  style={{ height: `${Math.max(1, Math.round((10_000 * bar.value) / top) / 100)}%` }}
                />
              )}
            </div>
            {/* The first label starts at its bar (never cut by the chart's edge); the others are centred. */}
            <span className={labelClass(i)}>{bar.label}</span>
          </div>
        ))}
      </div>
      <figcaption className="visually-hidden">{bars.map((b) => b.title).join("; ")}</figcaption>
    </figure>
  );
}

/**
 * The past year, one square a day, weeks as columns (Monday on top), darker for more recalls. The
 * year's 365 days are most of the page's bytes, so each is as short as it can be: a `<use>` of one
 * square drawn once (its colour inherited from the day's class), placed by its week's column.
 */
export function Heatmap({ history }: { history: { date: string; count: number }[] }) {
  const first = new Date(`${history[0]!.date}T00:00:00Z`);
  const offset = (first.getUTCDay() + 6) % 7; // Monday = 0
  const max = Math.max(1, ...history.map((d) => d.count));
  const level = (count: number) => (count === 0 ? 0 : Math.min(4, Math.ceil((count / max) * 4)));
  const cell = 12;
  const columns = Math.ceil((history.length + offset) / 7);
  const weeks = Array.from({ length: columns }, (_, week) =>
    history.slice(Math.max(0, week * 7 - offset), week * 7 + 7 - offset).map((day, i) => ({ day, row: week === 0 ? i + offset : i })),
  );
  return (
    <>
      {/* On a narrow screen the year scrolls, starting from its recent end. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a wide chart scrolls sideways; focusable, a keyboard scrolls it too. */}
      <figure className="stats-chart stats-heatmap" tabIndex={0} aria-label="Recalls per day over the past year">
        <svg viewBox={`0 0 ${columns * cell + 2} ${7 * cell + 2}`} role="img" aria-label="Recalls per day over the past year">
          <defs>
            <rect id="stats-day" width={cell - 2} height={cell - 2} rx={2} />
          </defs>
          {weeks.map((days, week) => (
            <g key={days[0]!.day.date} transform={`translate(${week * cell + 1})`}>
              {days.map(({ day, row }) => (
                <use key={day.date} href="#stats-day" className={`heat-${level(day.count)}`} y={row * cell + 1}>
                  <title>{`${day.date}: ${day.count} ${day.count === 1 ? "recall" : "recalls"}`}</title>
                </use>
              ))}
            </g>
          ))}
        </svg>
      </figure>
      <div className="stats-legend" aria-hidden="true">
        Less{" "}
        {[0, 1, 2, 3, 4].map((l) => (
          <span key={l} className={`heat-swatch heat-${l}`} />
        ))}{" "}
        More
      </div>
    </>
  );
}
