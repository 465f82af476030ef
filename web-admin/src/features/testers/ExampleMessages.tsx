import { SectionCard } from '../../components/SectionCard';
import type { TesterExample } from './tester-texts';

/** A card of clickable example messages; a click hands the example's text to `onPick`. */
export function ExampleMessages({
  examples,
  onPick,
  testId,
}: {
  examples: readonly TesterExample[];
  onPick: (message: string) => void;
  testId: string;
}) {
  return (
    <SectionCard
      title="Example messages"
      description="Pick one to put it in the message box."
      className="min-w-0"
    >
      <ul className="flex flex-col gap-2" data-testid={testId}>
        {examples.map((example) => (
          <li key={example.label}>
            <button
              type="button"
              onClick={() => onPick(example.message)}
              className="flex w-full cursor-pointer flex-col gap-1 rounded-md border border-border bg-background px-3 py-2 text-left text-sm transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              <span className="font-medium">{example.label}</span>
              <span className="break-words text-muted-foreground">{example.message}</span>
            </button>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}
