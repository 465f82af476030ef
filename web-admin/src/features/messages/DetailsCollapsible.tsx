import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@sprout/ui';
import { ChevronDown } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { LabelledValues } from '../../components/LabelledValues';

export interface DetailRow {
  label: string;
  value: ReactNode;
}

/** A list of items, or `empty` when there are none. */
export function ItemList({ items, empty }: { items: readonly string[]; empty: string }) {
  if (items.length === 0) return <span className="text-muted-foreground">{empty}</span>;
  return (
    <ul className="list-disc space-y-0.5 pl-5">
      {items.map((item, index) => (
        <li key={`${index}-${item}`}>{item}</li>
      ))}
    </ul>
  );
}

/** A collapsible block of labelled values ('Conversation Details'), closed at first. */
export function DetailsCollapsible({
  title,
  rows,
  testId,
}: {
  title: string;
  rows: readonly DetailRow[];
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Collapsible
      open={open}
      onOpenChange={setOpen}
      className="rounded-lg border border-border"
      data-testid={testId}
    >
      <CollapsibleTrigger className="group flex w-full cursor-pointer items-center justify-between rounded-lg px-4 py-3 text-left text-sm font-semibold hover:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
        {title}
        <ChevronDown
          className="size-4 transition-transform group-data-[state=open]:rotate-180"
          aria-hidden="true"
        />
      </CollapsibleTrigger>
      <CollapsibleContent>
        <LabelledValues
          rows={rows}
          className="grid gap-x-4 gap-y-2 border-t border-border px-4 py-3 text-sm sm:grid-cols-[max-content_1fr]"
          rowTestId="detail-row"
          strong="label"
        />
      </CollapsibleContent>
    </Collapsible>
  );
}
