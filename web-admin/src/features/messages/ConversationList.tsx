import type { ConversationDto } from '@sprout/contracts';
import { Badge, Button, cn, formatNumber, formatPhoneNumber, formatRelativeTime } from '@sprout/ui';
import { ChevronLeft, ChevronRight, MapPin, MessageSquare } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import type { Pagination as ConversationPagination } from '@sprout/contracts';
import { sentimentBadgeVariant, sentimentLabel } from '../users/engagement';
import { lastFourDigits, userSearchPath, visibleTopics } from './texts';

/** The conversation rows of one page; a click on a row selects its conversation. */
export function ConversationList({
  conversations,
  selectedId,
  onSelect,
}: {
  conversations: readonly ConversationDto[];
  selectedId: string | null;
  onSelect: (conversation: ConversationDto) => void;
}) {
  return (
    <ul
      aria-label="Conversations"
      className="flex max-h-[720px] flex-col gap-2 overflow-y-auto pr-1"
      data-testid="conversation-list"
    >
      {conversations.map((conversation) => (
        <ConversationRow
          key={conversation.id}
          conversation={conversation}
          selected={conversation.id === selectedId}
          onSelect={() => onSelect(conversation)}
        />
      ))}
    </ul>
  );
}

function ConversationRow({
  conversation,
  selected,
  onSelect,
}: {
  conversation: ConversationDto;
  selected: boolean;
  onSelect: () => void;
}) {
  const [topicsExpanded, setTopicsExpanded] = useState(false);
  const topics = visibleTopics(conversation.topicsDiscussed, topicsExpanded);
  const sentiment = sentimentLabel(conversation.sentiment);
  const last4 = lastFourDigits(conversation.phoneNumber);
  const when = conversation.endTime ?? conversation.lastMessageAt;
  return (
    <li
      data-testid="conversation-row"
      data-conversation-id={conversation.id}
      data-state={selected ? 'selected' : undefined}
      onClick={onSelect}
      className={cn(
        'cursor-pointer rounded-lg border border-border bg-card p-3 transition-colors hover:bg-muted/50',
        selected && 'border-primary/50 bg-secondary hover:bg-secondary',
      )}
    >
      <div className="flex items-start gap-3">
        <button
          type="button"
          aria-pressed={selected}
          aria-label={`Open conversation with the number ending ${last4}`}
          onClick={(event) => {
            event.stopPropagation();
            onSelect();
          }}
          data-testid="conversation-last4"
          className={cn(
            'flex size-11 shrink-0 cursor-pointer items-center justify-center rounded-full text-sm font-semibold tabular-nums focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
            selected ? 'bg-primary text-primary-foreground' : 'bg-primary/10 text-primary',
          )}
        >
          {last4}
        </button>
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            {/* The click reaches the row too: it selects the conversation, then the link opens the
                user (in this tab, or in a new one with this page's selection kept). */}
            <Link
              to={userSearchPath(conversation.phoneNumber)}
              className="w-fit font-medium text-primary hover:underline"
              data-testid="conversation-phone"
            >
              {formatPhoneNumber(conversation.phoneNumber)}
            </Link>
            <Badge variant={sentimentBadgeVariant(sentiment)} data-testid="conversation-sentiment">
              {sentiment}
            </Badge>
            {!conversation.userActive && (
              <Badge variant="outline" data-testid="conversation-inactive">
                Inactive
              </Badge>
            )}
          </div>
          {conversation.topicsDiscussed.length > 0 && (
            <div className="flex flex-wrap items-center gap-1" data-testid="conversation-topics">
              {topics.shown.map((topic, index) => (
                <Badge
                  key={`${index}-${topic}`}
                  variant="secondary"
                  className="font-normal"
                  data-testid="topic"
                >
                  {topic}
                </Badge>
              ))}
              {topics.hidden > 0 ? (
                <TopicsToggle onClick={() => setTopicsExpanded(true)}>+{topics.hidden} more</TopicsToggle>
              ) : (
                topicsExpanded && (
                  <TopicsToggle onClick={() => setTopicsExpanded(false)}>Show less</TopicsToggle>
                )
              )}
            </div>
          )}
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <span className="inline-flex items-center gap-1" data-testid="conversation-count">
              <MessageSquare className="size-3.5" aria-hidden="true" />
              {formatNumber(conversation.messageCount)}{' '}
              {conversation.messageCount === 1 ? 'message' : 'messages'}
            </span>
            <time dateTime={when ?? undefined} data-testid="conversation-time">
              {formatRelativeTime(when)}
            </time>
            {conversation.region && (
              <span className="inline-flex items-center gap-1" data-testid="conversation-region">
                <MapPin className="size-3.5" aria-hidden="true" />
                {conversation.region}
              </span>
            )}
          </div>
        </div>
      </div>
    </li>
  );
}

function TopicsToggle({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={(event) => {
        event.stopPropagation();
        onClick();
      }}
      className="cursor-pointer rounded px-1 text-xs font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      {children}
    </button>
  );
}

/**
 * Previous / Next, 'Page X of Y', and the total only when there is more than one page. A broad
 * search's total is the API's estimate: then 'of about Y' and 'about N conversations (estimated)'.
 * Next follows the page's cursor, so it is there exactly when the API says more rows follow.
 */
export function ConversationPager({
  pagination,
  page,
  onPage,
  disabled,
}: {
  pagination: ConversationPagination;
  page: number;
  onPage: (page: number) => void;
  disabled: boolean;
}) {
  const { totalPages, total, totalIsExact, nextCursor } = pagination;
  const hasNext = nextCursor !== null;
  // Rows may come and go between polls: the count never says fewer pages than were reached.
  const pages = Math.max(totalPages, page + (hasNext ? 1 : 0), 1);
  return (
    <nav
      aria-label="Conversation pages"
      className="flex items-center justify-between gap-2 pt-3"
      data-testid="pager"
    >
      <Button variant="outline" size="sm" disabled={disabled || page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft aria-hidden="true" /> Previous
      </Button>
      <p className="flex flex-col items-center text-center text-sm text-muted-foreground">
        <span data-testid="page-indicator">
          Page {page} of {totalIsExact ? '' : 'about '}
          {formatNumber(pages)}
        </span>
        {pages > 1 && (
          <span
            data-testid="conversation-total"
            className="text-xs whitespace-nowrap"
            title={
              totalIsExact
                ? undefined
                : 'An estimate: this search has too many matches to count on every refresh'
            }
          >
            {totalIsExact ? '' : 'about '}
            {formatNumber(Math.max(total, 0))} conversations{totalIsExact ? '' : ' (estimated)'}
          </span>
        )}
      </p>
      <Button variant="outline" size="sm" disabled={disabled || !hasNext} onClick={() => onPage(page + 1)}>
        Next <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}
