/** The early-click catcher (islands/runtime/early-clicks.ts) under happy-dom. */
import { expect, test } from "bun:test";
import { installEarlyClicks } from "../../islands/runtime/early-clicks";

test("a control clicked in an island not yet hydrated is held once, marked, and handed back; links and live islands are left alone", () => {
  document.body.innerHTML = `
    <div data-island="a"><button id="keep">Keep</button><a id="link" href="#x">x</a></div>
    <div data-island="b" data-hydrated><button id="live">Live</button></div>`;
  installEarlyClicks(window);
  const seen: string[] = [];
  document.addEventListener("click", (event) => seen.push((event.target as Element).id));
  const keep = document.getElementById("keep")!;
  keep.click();
  keep.click(); // a double click is one click
  document.getElementById("link")!.click();
  document.getElementById("live")!.click();
  expect(seen).toEqual(["link", "live"]);
  expect(keep.hasAttribute("data-pending-click")).toBe(true);

  const island = document.querySelector('[data-island="a"]')!;
  expect(window.engramEarlyClicks!.take(document.querySelector('[data-island="b"]')!)).toEqual([]);
  expect(window.engramEarlyClicks!.take(island)).toEqual([keep]);
  expect(keep.hasAttribute("data-pending-click")).toBe(false);
  expect(window.engramEarlyClicks!.take(island)).toEqual([]);
});
