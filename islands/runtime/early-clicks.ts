/**
 * Clicks that arrive before their island has hydrated: kept, and replayed once it has. The page's
 * buttons are server-rendered and look ready at first paint, but until the island's script has
 * run a click on one does nothing (or, for a submit button, posts the form the old way). This
 * small script runs first, from the document's head: a click on a control inside an island not
 * yet hydrated is held (the control is marked data-pending-click meanwhile, so it looks busy);
 * the island runtime replays it on the same element once the island is live (hydrate.tsx).
 * Links are left alone: they work without scripts. Built on its own as a classic script from
 * early-clicks-entry.ts (scripts/build-client.ts), so it must import nothing.
 */
export interface EarlyClicks {
  /** The controls clicked inside this island before it hydrated, in order; forgets them. */
  take(island: Element): HTMLElement[];
}

declare global {
  interface Window {
    engramEarlyClicks?: EarlyClicks;
  }
}

const CONTROLS =
  'button, [role="button"], [role="menuitem"], [role="tab"], [role="switch"], [role="checkbox"], [role="option"], ' +
  'input[type="submit"], input[type="button"], input[type="checkbox"], input[type="radio"], summary';

export function installEarlyClicks(win: Window) {
  const pending: { island: Element; control: HTMLElement }[] = [];
  win.document.addEventListener(
    "click",
    (event) => {
      const control = (event.target as Element | null)?.closest?.<HTMLElement>(CONTROLS);
      const island = control?.closest("[data-island]");
      if (!control || !island || island.hasAttribute("data-hydrated")) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      if (pending.some((click) => click.control === control)) return; // a double click is one click
      control.setAttribute("data-pending-click", "");
      pending.push({ island, control });
    },
    true,
  );
  win.engramEarlyClicks = {
    take(island) {
      const taken: HTMLElement[] = [];
      for (let i = 0; i < pending.length; ) {
        const click = pending[i]!;
        if (click.island === island) {
          pending.splice(i, 1);
          click.control.removeAttribute("data-pending-click");
          taken.push(click.control);
        } else i++;
      }
      return taken;
    },
  };
}
