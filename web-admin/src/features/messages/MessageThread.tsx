import type { ConversationMessage } from '@sprout/contracts';
import { cn, formatDateTime, formatDollars, formatNumber, LoadingText } from '@sprout/ui';
import { ImageIcon } from 'lucide-react';
import { ImageThumbnail } from '../images/ImageThumbnail';
import { useEffect, useRef } from 'react';
import { DeliveryStatus } from './delivery-status';
import { messagesTexts } from './texts';

/**
 * A conversation's messages, oldest first, scrolled smoothly to the latest whenever a new one
 * arrives. Outbound messages carry their delivery icon, model, tokens and costs (the AI's and
 * sending's); an inbound photo its analysis's cost.
 */
export function MessageThread({
  messages,
  isPending,
  isError,
  className,
}: {
  messages: ConversationMessage[] | undefined;
  isPending: boolean;
  isError: boolean;
  className?: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const latest = messages?.at(-1)?.id;

  useEffect(() => {
    const element = scroller.current;
    if (element === null || latest === undefined) return;
    element.scrollTo({ top: element.scrollHeight, behavior: 'smooth' });
  }, [latest]);

  let body;
  if (isPending) body = <LoadingText>{messagesTexts.loadingMessages}</LoadingText>;
  else if (isError)
    body = (
      <p role="alert" className="py-6 text-center text-sm text-destructive">
        {messagesTexts.messagesFailed}
      </p>
    );
  else if (!messages || messages.length === 0)
    body = <p className="py-6 text-center text-sm text-muted-foreground">{messagesTexts.noMessages}</p>;
  else
    body = (
      <ol className="flex flex-col gap-3" aria-label="Messages">
        {messages.map((message) => (
          <MessageBubble key={message.id} message={message} />
        ))}
      </ol>
    );

  return (
    <div
      ref={scroller}
      data-testid="message-thread"
      tabIndex={0}
      aria-label="Conversation messages"
      className={cn('overflow-y-auto rounded-lg border border-border bg-muted/30 p-3', className)}
    >
      {body}
    </div>
  );
}

/** " (2 segments)" for a message sent in more than one. */
const segmentsOf = (message: ConversationMessage): string =>
  message.segments !== null && message.segments > 1 ? ` (${message.segments} segments)` : '';

function MessageBubble({ message }: { message: ConversationMessage }) {
  const outbound = message.direction === 'outbound';
  const usage = (
    outbound
      ? [
          message.modelUsed,
          message.tokenUsage > 0 ? `${formatNumber(message.tokenUsage)} tokens` : null,
          message.cost > 0 ? `AI ${formatDollars(message.cost, 4)}` : null,
          message.smsCost === null ? null : `SMS ${formatDollars(message.smsCost, 4)}${segmentsOf(message)}`,
        ]
      : [message.cost > 0 ? `Image analysis ${formatDollars(message.cost, 4)}` : null]
  ).filter((part): part is string => part !== null);
  return (
    <li
      data-testid="message"
      data-direction={message.direction}
      className={cn('flex flex-col gap-1', outbound ? 'items-end' : 'items-start')}
    >
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3 py-2 text-sm whitespace-pre-wrap shadow-sm',
          outbound
            ? 'rounded-br-sm bg-primary text-primary-foreground'
            : 'rounded-bl-sm border border-border bg-card',
        )}
      >
        {message.content}
        {message.imageUrl && (
          <span className="mt-1 flex items-center gap-1 text-xs opacity-80">
            <ImageIcon className="size-3.5" aria-hidden="true" /> Image attached
          </span>
        )}
        {message.imageUrl && <ImageThumbnail url={message.imageUrl} alt="Attached image" />}
        {message.imageAnalysis && (
          <span className="mt-1 block text-xs opacity-80" data-testid="image-analysis">
            <span className="font-medium">Image analysis:</span> {message.imageAnalysis}
          </span>
        )}
      </div>
      <div
        className={cn(
          'flex max-w-full flex-wrap items-center gap-x-1.5 gap-y-0.5 text-xs text-muted-foreground',
          outbound && 'justify-end',
        )}
      >
        <span className="sr-only">{outbound ? 'Sprout' : 'User'}, </span>
        <time dateTime={message.createdAt} className="whitespace-nowrap">
          {formatDateTime(message.createdAt)}
        </time>
        {usage.map((part) => (
          <span key={part} className="whitespace-nowrap">
            · {part}
          </span>
        ))}
        <DeliveryStatus message={message} />
      </div>
    </li>
  );
}
