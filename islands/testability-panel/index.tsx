import { useState } from "react";
import { api, call } from "../lib/api";
import { showToast } from "../lib/ui-store";

/** The testability side panel (non-production only): reset the data, move the clock, fix randomness. */
export default function TestabilityPanel() {
  const [open, setOpen] = useState(false);
  const [travelTo, setTravelTo] = useState("");
  const run = async (label: string, action: () => Promise<unknown>) => {
    await action();
    showToast(label, "success");
  };
  return (
    <aside className={`testability-panel${open ? " open" : ""}`} aria-label="Testability">
      <button type="button" className="testability-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Testability
      </button>
      {open && (
        <div className="testability-body">
          <button
            type="button"
            className="button"
            onClick={() => run("Database cleaned", () => call(api.testability.clean_db_and_reset_testability_settings.post()))}
          >
            Clean DB and reset
          </button>
          <label>
            Time travel to
            <input type="datetime-local" value={travelTo} onChange={(event) => setTravelTo(event.target.value)} />
          </label>
          <button
            type="button"
            className="button"
            disabled={!travelTo}
            onClick={() =>
              run("Clock moved", () =>
                call(api.testability.time_travel.post({ travel_to: JSON.stringify(new Date(travelTo).toISOString()) })),
              )
            }
          >
            Travel
          </button>
          <button
            type="button"
            className="button"
            onClick={() => run("Randomizer set to seed", () => call(api.testability.randomizer.post({ choose: "seed", seed: 1 })))}
          >
            Seeded randomness
          </button>
        </div>
      )}
    </aside>
  );
}
