import * as RadixTabs from "@radix-ui/react-tabs";
import type { ReactNode } from "react";
import { ScrollingStrip, useStripRef } from "./ScrollingStrip";

export interface TabDefinition<K extends string> {
  key: K;
  label: string;
  /** Rendered only while its tab is selected. */
  content: () => ReactNode;
}

/**
 * WAI-ARIA tabs on Radix UI: arrow keys, Home and End move between tabs; only the selected panel
 * renders. A strip wider than the screen scrolls, with arrows at the edges (ScrollingStrip).
 */
export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
}: {
  label: string;
  tabs: readonly TabDefinition<K>[];
  selected: K;
  onSelect: (key: K) => void;
}) {
  const strip = useStripRef<HTMLDivElement>();
  return (
    <RadixTabs.Root value={selected} onValueChange={(value) => onSelect(value as K)} activationMode="automatic">
      <ScrollingStrip scrollerRef={strip}>
        <RadixTabs.List ref={strip} className="tabs" aria-label={label}>
          {tabs.map((tab) => (
            <RadixTabs.Trigger key={tab.key} value={tab.key} className="tab">
              {tab.label}
            </RadixTabs.Trigger>
          ))}
        </RadixTabs.List>
      </ScrollingStrip>
      {tabs.map((tab) => (
        <RadixTabs.Content key={tab.key} value={tab.key} className="tab-panel">
          {selected === tab.key && tab.content()}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
