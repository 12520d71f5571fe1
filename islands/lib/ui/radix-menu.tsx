import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { fittingPlacement } from "./menu-placement";

/**
 * The Radix UI half of Menu (./Menu.tsx), loaded the first time someone opens a menu: anchored
 * beside its trigger (flipping and shifting to stay on screen), portalled to <body> so no parent's
 * colours or overflow reach it, with arrow keys, Home/End and typeahead, Escape returning focus to
 * the trigger. It is not modal: a click outside closes it and still reaches what was clicked.
 * It mounts already open, in place of the plain trigger button the page was served with. Each time
 * it opens, a side without room for it gives way to one with room (menu-placement.ts).
 */
export function RadixMenu({
  label,
  title,
  triggerClassName,
  trigger,
  children,
  align,
  side,
  onOpenChange,
  openedByKeyboard,
}: {
  label: string;
  title?: string;
  triggerClassName: string;
  trigger: ReactNode;
  children: ReactNode;
  align: "start" | "center" | "end";
  side: "top" | "right" | "bottom" | "left";
  onOpenChange?: (open: boolean) => void;
  /** Opened from the keyboard: the first item takes the focus, as Radix does for later openings. */
  openedByKeyboard: boolean;
}) {
  const focusFirstItem = useRef(openedByKeyboard);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [placement, setPlacement] = useState({ side, align });
  const place = () => {
    const trigger = triggerRef.current;
    if (trigger)
      setPlacement(
        fittingPlacement(trigger.getBoundingClientRect(), { side, align }, { width: window.innerWidth, height: window.innerHeight }),
      );
  };
  // Mounted open: placed before the first paint. Later openings are placed as they open.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the opening that mounted it.
  useLayoutEffect(place, []);
  return (
    <DropdownMenu.Root
      modal={false}
      defaultOpen
      onOpenChange={(open) => {
        if (open) place();
        onOpenChange?.(open);
      }}
    >
      <DropdownMenu.Trigger ref={triggerRef} className={triggerClassName} aria-label={title ? label : undefined} title={title}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="menu"
          aria-label={label}
          align={placement.align}
          side={placement.side}
          sideOffset={4}
          collisionPadding={8}
          loop
          // Radix learns that the keyboard is in use from a key pressed while it is mounted; the key
          // that opened this menu was pressed before, on the plain trigger. Radix's content passes
          // onOpenAutoFocus on to its focus scope, though its types leave it out of DropdownMenu.
          {...{
            onOpenAutoFocus: (event: Event) => {
              if (!focusFirstItem.current) return;
              focusFirstItem.current = false;
              const first = (event.currentTarget as HTMLElement).querySelector<HTMLElement>("[role=menuitem]:not([data-disabled])");
              if (first) {
                event.preventDefault();
                first.focus({ preventScroll: true });
              }
            },
          }}
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function RadixMenuItem({ onSelect, children, danger }: { onSelect: () => void; children: ReactNode; danger: boolean }) {
  return (
    <DropdownMenu.Item className={`menu-entry${danger ? " danger" : ""}`} onSelect={onSelect}>
      {children}
    </DropdownMenu.Item>
  );
}

export function RadixMenuLink({ href, children, newTab }: { href: string; children: ReactNode; newTab: boolean }) {
  return (
    <DropdownMenu.Item asChild className="menu-entry">
      <a href={href} {...(newTab ? { target: "_blank", rel: "noopener noreferrer" } : {})}>
        {children}
      </a>
    </DropdownMenu.Item>
  );
}

export function RadixMenuSeparator() {
  return <DropdownMenu.Separator className="menu-separator" />;
}
