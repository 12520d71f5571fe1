import { type KeyboardEvent, type MouseEvent, type ReactNode, useState } from "react";
import type * as RadixMenuModule from "./radix-menu";

/*
 * A dropdown menu whose Radix UI half (./radix-menu.tsx, with the positioning and focus code it
 * needs: about a fifth of a page's script) is loaded the first time a menu is opened, not with the
 * page. Until then the trigger is a plain button with the same name, class and ARIA state; a click,
 * Enter, Space or ArrowDown on it loads the module (already fetched when the pointer came over the
 * button or the focus reached it) and puts the Radix menu in its place, open. From then on it is
 * the Radix menu: anchored beside the trigger, portalled to <body>, arrow keys, Home/End and
 * typeahead, Escape returning focus to the trigger, and not modal (a click outside still acts).
 */

type Loaded = typeof RadixMenuModule;
let loaded: Loaded | undefined;
let loading: Promise<Loaded> | undefined;

/** Fetches the Radix menu module once; the promise answers it. */
export function loadMenu(): Promise<Loaded> {
  loading ??= import("./radix-menu").then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined; // a failed fetch may be retried by the next click
      throw error;
    },
  );
  return loading;
}

export function Menu({
  label,
  title,
  triggerClassName,
  trigger,
  children,
  align = "end",
  side = "bottom",
  onOpenChange,
}: {
  /** The accessible name of the trigger and of the menu. */
  label: string;
  /** The trigger's tooltip, when its content is only an icon. */
  title?: string;
  triggerClassName: string;
  trigger: ReactNode;
  children: ReactNode;
  align?: "start" | "center" | "end";
  side?: "top" | "right" | "bottom" | "left";
  onOpenChange?: (open: boolean) => void;
}) {
  const [opened, setOpened] = useState<{ module: Loaded; byKeyboard: boolean } | null>(null);
  if (opened) {
    const { RadixMenu } = opened.module;
    return (
      <RadixMenu
        label={label}
        title={title}
        triggerClassName={triggerClassName}
        trigger={trigger}
        align={align}
        side={side}
        onOpenChange={onOpenChange}
        openedByKeyboard={opened.byKeyboard}
      >
        {children}
      </RadixMenu>
    );
  }
  const open = (byKeyboard: boolean) => {
    void loadMenu().then((module) => {
      setOpened((current) => current ?? { module, byKeyboard });
      onOpenChange?.(true);
    });
  };
  return (
    <button
      type="button"
      className={triggerClassName}
      aria-label={title ? label : undefined}
      title={title}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={() => void loadMenu().catch(() => {})}
      onFocus={() => void loadMenu().catch(() => {})}
      // A click from Enter or Space has no pointer position (detail 0).
      onClick={(event: MouseEvent) => open(event.detail === 0)}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key !== "ArrowDown") return;
        event.preventDefault();
        open(true);
      }}
    >
      {trigger}
    </button>
  );
}

/** A menu entry that acts (the menu closes first). Rendered only inside an open menu. */
export function MenuItem({ onSelect, children, danger = false }: { onSelect: () => void; children: ReactNode; danger?: boolean }) {
  return loaded ? (
    <loaded.RadixMenuItem onSelect={onSelect} danger={danger}>
      {children}
    </loaded.RadixMenuItem>
  ) : null;
}

/** A menu entry that navigates. */
export function MenuLink({ href, children, newTab = false }: { href: string; children: ReactNode; newTab?: boolean }) {
  return loaded ? (
    <loaded.RadixMenuLink href={href} newTab={newTab}>
      {children}
    </loaded.RadixMenuLink>
  ) : null;
}

export function MenuSeparator() {
  return loaded ? <loaded.RadixMenuSeparator /> : null;
}
