import { Tabs, TabsContent, TabsList, TabsTrigger } from '@sprout/ui';
import type { ReactNode } from 'react';

export interface TabPanel {
  value: string;
  label: ReactNode;
  content: ReactNode;
}

/** Tabs over panels, the first one open; a panel's content is rendered only while its tab is open. */
export function TabPanels({
  tabs,
  className,
  listClassName,
  listLabel,
  contentClassName,
}: {
  tabs: readonly TabPanel[];
  className?: string;
  listClassName?: string;
  /** Names the tab list for screen readers, when the page has more than one. */
  listLabel?: string;
  contentClassName?: string;
}) {
  return (
    <Tabs defaultValue={tabs[0]?.value} className={className}>
      <TabsList className={listClassName} aria-label={listLabel}>
        {tabs.map((tab) => (
          <TabsTrigger key={tab.value} value={tab.value}>
            {tab.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {tabs.map((tab) => (
        <TabsContent key={tab.value} value={tab.value} className={contentClassName}>
          {tab.content}
        </TabsContent>
      ))}
    </Tabs>
  );
}
