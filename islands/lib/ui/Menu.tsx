import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";

/**
 * A dropdown menu on Radix UI: opened by its trigger button, anchored beside it (flipping and
 * shifting to stay on screen), portalled to <body> so no parent's colours or overflow reach it,
 * with arrow keys, Home/End and typeahead, Escape returning focus to the trigger. It is not modal:
 * a click outside closes it and still reaches what was clicked.
 */
export function Menu({ label, title, triggerClassName, trigger, children, align = "end", side = "bottom", onOpenChange }: {
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
  return (
    <DropdownMenu.Root modal={false} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger className={triggerClassName} aria-label={title ? label : undefined} title={title}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" aria-label={label} align={align} side={side} sideOffset={4}
          collisionPadding={8} loop>
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** A menu entry that acts (the menu closes first). */
export function MenuItem({ onSelect, children, danger = false }: { onSelect: () => void; children: ReactNode; danger?: boolean }) {
  return (
    <DropdownMenu.Item className={`menu-entry${danger ? " danger" : ""}`} onSelect={onSelect}>
      {children}
    </DropdownMenu.Item>
  );
}

/** A menu entry that navigates. */
export function MenuLink({ href, children, newTab = false }: { href: string; children: ReactNode; newTab?: boolean }) {
  return (
    <DropdownMenu.Item asChild className="menu-entry">
      <a href={href} {...(newTab ? { target: "_blank", rel: "noopener noreferrer" } : {})}>{children}</a>
    </DropdownMenu.Item>
  );
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className="menu-separator" />;
}
