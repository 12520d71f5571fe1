import { renderToStaticMarkup } from "react-dom/server";
import type { StatsPageJson } from "../../src/services/stats/stats";
import { PageHeading } from "./SimplePages";
import { BarChart, Heatmap, shortDate } from "./StatsCharts";

/**
 * /d/stats: the forecast, the past year as a heatmap, retention and totals, drawn as
 * plain server-rendered SVG so every figure is in the first HTML without client code (the chart
 * libraries looked at draw on a canvas in the browser). Each chart has a text alternative. The
 * figures are drawn once (statsHtml) and the HTML kept as long as they hold (drawnStatsPage).
 */
export function DrawnStatsPage({ html }: { html: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own rendering of StatsPageContent (statsHtml), every value escaped there.
  return <div className="stats-page" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** StatsPageContent as HTML (no markers for hydration: nothing on this page hydrates). */
export const statsHtml = (stats: StatsPageJson) => renderToStaticMarkup(<StatsPageContent stats={stats} />);

function StatsPageContent({ stats }: { stats: StatsPageJson }) {
  const { totals } = stats;
  const recalls = stats.history.reduce((n, d) => n + d.count, 0);
  return (
    <>
      <PageHeading title="Statistics" />
      <section aria-labelledby="stats-totals" className="stats-section">
        <h2 id="stats-totals">Totals</h2>
        <dl className="stats-totals">
          <Figure label="Notes assimilated" value={totals.notesAssimilated} />
          <Figure label="Memory trackers" value={totals.activeTrackers} />
          <Figure label="Average interval" value={`${totals.averageIntervalDays} days`} />
          <Figure label="Due today" value={stats.forecast[0]?.count ?? 0} />
          <Figure label="Streak" value={`${stats.streakDays} ${stats.streakDays === 1 ? "day" : "days"}`} />
        </dl>
        {totals.activeTrackers === 0 && (
          <p className="empty-state">Nothing to show yet. Once you assimilate notes, your workload, history and retention appear here.</p>
        )}
      </section>

      <section aria-labelledby="stats-forecast" className="stats-section">
        <h2 id="stats-forecast">Forecast</h2>
        <p className="muted">Reviews due each day for the next 30 days; today includes everything overdue.</p>
        {stats.forecast.some((d) => d.count > 0) ? (
          <BarChart
            label="Reviews due per day for the next 30 days"
            bars={stats.forecast.map((d, i) => ({
              key: d.date,
              value: d.count,
              label: i === 0 ? "Today" : shortDate(d.date),
              title: `${d.date}: ${d.count} due`,
              highlight: i === 0,
            }))}
          />
        ) : (
          <p className="empty-state">No reviews are due in the next 30 days.</p>
        )}
      </section>

      <section aria-labelledby="stats-history" className="stats-section">
        <h2 id="stats-history">History</h2>
        <p className="muted">
          {recalls} {recalls === 1 ? "recall" : "recalls"} in the past year; streak: {stats.streakDays}{" "}
          {stats.streakDays === 1 ? "day" : "days"} in a row.
        </p>
        {recalls > 0 ? (
          <Heatmap history={stats.history} />
        ) : (
          <p className="empty-state">Each day you recall notes will be marked here, like a contribution graph.</p>
        )}
      </section>

      <section aria-labelledby="stats-retention" className="stats-section">
        <h2 id="stats-retention">Retention</h2>
        <RetentionByWeek weeks={stats.retentionByWeek} />
        <h3>By notebook</h3>
        {stats.retentionByNotebook.length ? (
          <table className="stats-table">
            <thead>
              <tr>
                <th scope="col">Notebook</th>
                <th scope="col">Recalls</th>
                <th scope="col">Remembered</th>
              </tr>
            </thead>
            <tbody>
              {stats.retentionByNotebook.map((nb) => (
                <tr key={nb.notebookId}>
                  <td>{nb.title}</td>
                  <td>{nb.reviews}</td>
                  <td>
                    <Share part={nb.successes} whole={nb.reviews} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="empty-state">Your share of remembered notes per notebook appears after your first recalls.</p>
        )}
        <h3>Most often failed</h3>
        {stats.mostFailedNotes.length ? (
          <ol className="stats-failed">
            {stats.mostFailedNotes.map((note) => (
              <li key={note.noteId}>
                <a href={`/n${note.noteId}`}>{note.title}</a>{" "}
                <span className="muted">
                  ({note.failures} {note.failures === 1 ? "time" : "times"})
                </span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="empty-state">No failed recalls yet. Notes you often forget will be listed here.</p>
        )}
      </section>

      {stats.fsrs && (
        <section aria-labelledby="stats-fsrs" className="stats-section">
          <h2 id="stats-fsrs">Memory (FSRS)</h2>
          <h3>Stability</h3>
          <BarChart
            label="Memory trackers by stability"
            bars={stats.fsrs.stability.map((b) => ({ key: b.label, value: b.count, label: b.label, title: `${b.label}: ${b.count}` }))}
          />
          <h3>Retrievability today</h3>
          <BarChart
            label="Memory trackers by probability of recall today"
            bars={stats.fsrs.retrievability.map((b) => ({ key: b.label, value: b.count, label: b.label, title: `${b.label}: ${b.count}` }))}
          />
        </section>
      )}
    </>
  );
}

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="stats-figure">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function Share({ part, whole }: { part: number; whole: number }) {
  const percent = whole ? Math.round((part / whole) * 100) : 0;
  return (
    <span className="stats-share">
      <span className="stats-share-bar" aria-hidden="true">
        <span style={{ width: `${percent}%` }} />
      </span>
      {percent} %
    </span>
  );
}

function RetentionByWeek({ weeks }: { weeks: StatsPageJson["retentionByWeek"] }) {
  const withReviews = weeks.filter((w) => w.reviews > 0);
  if (!withReviews.length)
    return <p className="empty-state">Your share of successful recalls per week appears after your first recalls.</p>;
  const total = withReviews.reduce((n, w) => n + w.reviews, 0);
  const successes = withReviews.reduce((n, w) => n + w.successes, 0);
  return (
    <>
      <p className="muted">
        Remembered {Math.round((successes / total) * 100)} % of {total} recalls in the past year, per week:
      </p>
      <BarChart
        label="Share of successful recalls per week"
        max={100}
        unit=" %"
        bars={withReviews.slice(-26).map((w) => {
          const percent = Math.round((w.successes / w.reviews) * 100);
          return {
            key: w.weekStart,
            value: percent,
            label: shortDate(w.weekStart),
            title: `Week of ${w.weekStart}: ${percent} % of ${w.reviews}`,
          };
        })}
      />
    </>
  );
}
