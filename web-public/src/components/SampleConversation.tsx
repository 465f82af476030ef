import { cn } from '@sprout/ui';
import { Sprout } from 'lucide-react';
import { useEffect, useState } from 'react';
import { MESSAGE_REVEAL_DELAY_MS, sampleConversation } from './sample-conversation';

/** A phone showing the sample text conversation, revealed one message at a time. */
export function SampleConversation() {
  const [shown, setShown] = useState(0);

  useEffect(() => {
    if (shown >= sampleConversation.length) return;
    const timer = setTimeout(() => setShown((n) => n + 1), MESSAGE_REVEAL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [shown]);

  return (
    <figure className="mx-auto w-full max-w-sm">
      <div className="overflow-hidden rounded-[2rem] border-8 border-brand-dark bg-card shadow-xl">
        <div className="flex items-center gap-3 border-b border-border bg-muted px-4 py-3">
          <span className="flex size-9 items-center justify-center rounded-full bg-primary text-primary-foreground">
            <Sprout className="size-5" aria-hidden="true" />
          </span>
          <div>
            <p className="text-sm font-semibold">Sprout</p>
            <p className="text-xs text-muted-foreground">Text message</p>
          </div>
        </div>
        {/* Every message is laid out from the start (the phone keeps its size); each becomes visible in turn. */}
        <ol
          aria-label="Sample text conversation"
          aria-live="polite"
          className="flex flex-col gap-3 p-4"
          data-testid="sample-conversation"
        >
          {sampleConversation.map((message, index) => {
            const revealed = index < shown;
            return (
              <li
                key={index}
                aria-hidden={!revealed}
                data-testid={revealed ? 'sample-message' : undefined}
                className={cn(
                  'max-w-[85%] rounded-2xl px-3.5 py-2 text-sm leading-snug',
                  revealed ? 'animate-message-in' : 'invisible',
                  message.from === 'gardener'
                    ? 'self-end rounded-br-sm bg-primary text-primary-foreground'
                    : 'self-start rounded-bl-sm bg-secondary text-secondary-foreground',
                )}
              >
                <span className="sr-only">{message.from === 'gardener' ? 'Gardener: ' : 'Sprout: '}</span>
                {message.text}
              </li>
            );
          })}
        </ol>
      </div>
      <figcaption className="mt-3 text-center text-sm text-muted-foreground">
        A real conversation, by plain text message.
      </figcaption>
    </figure>
  );
}
