import type { SimulatorMessage } from '@sprout/contracts';
import { cn, formatDollars, formatNumber, formatTime } from '@sprout/ui';
import { useState } from 'react';

/** An image that removes itself when it cannot be loaded. */
function MessageImage({ url }: { url: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <img
      src={url}
      alt="Attached image"
      loading="lazy"
      className="mb-2 max-h-60 w-full rounded-md object-cover"
      onError={() => setFailed(true)}
      data-testid="message-image"
    />
  );
}

/**
 * One chat bubble: the test user's messages on the right, Sprout's replies on the left, each with
 * its time, tokens and cost.
 */
export function ChatMessage({ message, compact = false }: { message: SimulatorMessage; compact?: boolean }) {
  const inbound = message.direction === 'inbound';
  return (
    <li
      className={cn('flex', inbound ? 'justify-end' : 'justify-start')}
      data-testid="chat-message"
      data-direction={message.direction}
    >
      <div
        className={cn(
          'rounded-2xl px-3.5 py-2.5 shadow-sm',
          compact ? 'max-w-[85%]' : 'max-w-[80%]',
          inbound
            ? 'rounded-br-sm bg-primary text-primary-foreground'
            : 'rounded-bl-sm border border-border bg-card text-card-foreground',
        )}
      >
        <span className="sr-only">{inbound ? 'Test user:' : 'Sprout:'}</span>
        {message.imageUrl && <MessageImage url={message.imageUrl} />}
        {message.imageAnalysis && (
          <p
            className={cn(
              'mb-2 text-xs break-words whitespace-pre-wrap',
              inbound ? 'text-primary-foreground/85' : 'text-muted-foreground',
            )}
            data-testid="image-analysis"
          >
            <span className="font-medium">Image analysis:</span> {message.imageAnalysis}
          </p>
        )}
        <p className="text-sm break-words whitespace-pre-wrap" data-testid="message-content">
          {message.content}
        </p>
        <p
          className={cn(
            'mt-1.5 flex flex-wrap gap-x-2 text-[11px]',
            inbound ? 'justify-end text-primary-foreground/85' : 'text-muted-foreground',
          )}
          data-testid="message-meta"
        >
          <time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time>
          <span>{formatNumber(message.tokenUsage)} tokens</span>
          <span>{formatDollars(message.cost, 4)}</span>
        </p>
      </div>
    </li>
  );
}
