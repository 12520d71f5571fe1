import { describe, expect, test } from "bun:test";
import { act, type ComponentType, useState } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { lazyShown } from "../../islands/lib/lazy";

/**
 * A part rendered by the server with the page whose code the browser fetches only when the page
 * shows it (lib/lazy.tsx's lazyShown): the browser keeps the server's HTML of it while the code
 * arrives, the rest of the island works meanwhile, and the part hydrates in place once it is here.
 */

/** The part: a counter of its own, so that its hydration shows in a click. */
function Tally({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" className="part" onClick={() => setCount(count + 1)}>
      {label} {count}
    </button>
  );
}

/** An island around the part (when it shows it), with a counter of its own outside it. */
function Island({ Part, show = true }: { Part: ComponentType<{ label: string }>; show?: boolean }) {
  const [clicks, setClicks] = useState(0);
  return (
    <div>
      <button type="button" className="outside" onClick={() => setClicks(clicks + 1)}>
        outside {clicks}
      </button>
      {show && <Part label="part" />}
    </div>
  );
}

/** A part whose code arrives when `arrive` is called. */
function heldPart() {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  let asked = 0;
  const Part = lazyShown(async () => {
    asked += 1;
    await arrived;
    return Tally;
  });
  return { Part, arrive, asked: () => asked };
}

describe("lazyShown", () => {
  test("hydrating keeps the server's HTML of the part until its code is here, then the part works in place", async () => {
    // The server's rendering, with the part's code at hand (as the server has it: serverPartsLoaded).
    const server = heldPart();
    server.arrive();
    const container = document.createElement("div");
    document.body.appendChild(container);
    const warmUp = createRoot(document.createElement("div"));
    await act(async () => warmUp.render(<server.Part label="part" />));
    act(() => warmUp.unmount());
    container.innerHTML = renderToString(<Island Part={server.Part} />);
    expect(container.querySelector(".part")?.textContent).toBe("part 0");
    const servedPart = container.querySelector(".part");

    // The browser, whose copy of the part's code has not arrived yet.
    const browser = heldPart();
    const errors: unknown[] = [];
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(container, <Island Part={browser.Part} />, { onRecoverableError: (error) => errors.push(error) });
    });
    expect(browser.asked()).toBe(1);
    expect(container.querySelector(".part")).toBe(servedPart);
    expect(servedPart?.textContent).toBe("part 0");
    // The rest of the island is live meanwhile.
    await act(async () => container.querySelector<HTMLButtonElement>(".outside")!.click());
    expect(container.querySelector(".outside")?.textContent).toBe("outside 1");
    expect(container.querySelector(".part")).toBe(servedPart);

    await act(async () => browser.arrive());
    // Hydrated in place: the same element, now answering its clicks.
    expect(container.querySelector(".part")).toBe(servedPart);
    await act(async () => container.querySelector<HTMLButtonElement>(".part")!.click());
    expect(container.querySelector(".part")?.textContent).toBe("part 1");
    expect(errors).toEqual([]);
    act(() => root?.unmount());
  });

  test("a page that never shows the part never fetches its code", async () => {
    const { Part, asked } = heldPart();
    const container = document.createElement("div");
    container.innerHTML = renderToString(<Island Part={Part} show={false} />);
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(container, <Island Part={Part} show={false} />);
    });
    expect(asked()).toBe(0);
    act(() => root?.unmount());
  });
});
