import type { AdminUserListItem } from '@sprout/contracts';
import {
  Badge,
  formatDate,
  formatDollars,
  formatNumber,
  formatPhoneNumber,
  formatRelativeTime,
  TableBody,
  TableCell,
  TableHeader,
  TableRow,
} from '@sprout/ui';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { engagementLevel, sentimentBadgeVariant, sentimentLabel } from './engagement';
import { useRowWindow } from './row-window';
import type { UserSort, UserSortKey } from './user-sorting';
import { ActiveBadge } from '../../components/ActiveBadge';
import { SortableHead } from '../../components/SortableHead';

interface Column {
  key: UserSortKey;
  label: string;
  align?: 'right';
}

/** The table's columns, each sortable. */
export const USER_COLUMNS: readonly Column[] = [
  { key: 'phoneNumber', label: 'Phone Number' },
  { key: 'region', label: 'Region' },
  { key: 'isActive', label: 'Status' },
  { key: 'totalMessages', label: 'Messages', align: 'right' },
  { key: 'engagement', label: 'Engagement' },
  { key: 'sentiment', label: 'Sentiment' },
  { key: 'totalCost', label: 'Cost', align: 'right' },
  { key: 'profileCompletionScore', label: 'Profile', align: 'right' },
  { key: 'createdAt', label: 'Joined' },
  { key: 'lastMessageAt', label: 'Last Message' },
];

const ENGAGEMENT_CLASSES = {
  High: 'border-transparent bg-emerald-100 text-emerald-900',
  Medium: 'border-transparent bg-amber-100 text-amber-900',
  Low: 'border-border text-muted-foreground',
} as const;

/** A row's height before one is measured (px); rows never wrap, so all have the measured one. */
const ESTIMATED_ROW_HEIGHT = 45;
/** Rows rendered beyond the visible ones on each side. */
const OVERSCAN = 10;
/** The next page is asked for when the rendered rows come this close to the last loaded one. */
const LOAD_AHEAD = 30;

/**
 * The sortable user table, 500 px high with a sticky header; a click on a row selects the user.
 * The rows come sorted from the server, a page at a time: only the visible ones (and the
 * overscan) are in the DOM, and scrolling near the last loaded row asks for the next page.
 */
export function UserTable({
  users,
  total,
  sort,
  onSort,
  selectedId,
  onSelect,
  hasMore,
  loadingMore,
  onLoadMore,
  resetKey,
}: {
  users: readonly AdminUserListItem[];
  /** All users of the list (the X-Total-Count), for assistive technology's row count. */
  total: number;
  sort: UserSort;
  onSort: (key: UserSortKey) => void;
  selectedId: string | null;
  onSelect: (id: string) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  /** Changes with the sort, search or Test Data Mode: the table scrolls back to the top. */
  resetKey: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [rowHeight, setRowHeight] = useState(ESTIMATED_ROW_HEIGHT);
  const view = useRowWindow(scrollRef, users.length, rowHeight, OVERSCAN);

  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [resetKey]);

  // The spacers stand for rows of the measured height, so the scroll bar and position are exact.
  useLayoutEffect(() => {
    const row = bodyRef.current?.querySelector<HTMLElement>('[data-testid="user-row"]');
    const height = row?.getBoundingClientRect().height;
    if (height !== undefined && height > 0 && Math.abs(height - rowHeight) > 0.1) setRowHeight(height);
  }, [users, view.start, view.end, rowHeight]);

  const nearEnd = view.end >= users.length - LOAD_AHEAD;
  useEffect(() => {
    if (nearEnd && hasMore && !loadingMore) onLoadMore();
  }, [nearEnd, hasMore, loadingMore, onLoadMore]);

  return (
    <div
      ref={scrollRef}
      className="h-[500px] overflow-auto rounded-lg border border-border"
      data-testid="users-table-scroll"
    >
      <table
        className="w-full caption-bottom text-sm [&_td]:px-1.5 [&_td]:whitespace-nowrap [&_th]:px-1.5"
        data-testid="users-table"
        aria-rowcount={Math.max(total, users.length) + 1}
      >
        <caption className="sr-only">
          Users, sorted by {USER_COLUMNS.find((c) => c.key === sort.key)?.label}
        </caption>
        <TableHeader className="sticky top-0 z-10 bg-card shadow-[0_1px_0_var(--color-border)]">
          <TableRow className="hover:bg-transparent" aria-rowindex={1}>
            {USER_COLUMNS.map((column) => (
              <SortableHead key={column.key} column={column} sort={sort} onSort={onSort} dense />
            ))}
          </TableRow>
        </TableHeader>
        <TableBody ref={bodyRef}>
          {view.before > 0 && <tr aria-hidden="true" style={{ height: view.before }} />}
          {users.slice(view.start, view.end).map((user, i) => (
            <UserRow
              key={user.id}
              user={user}
              index={view.start + i}
              selected={user.id === selectedId}
              onSelect={() => onSelect(user.id)}
            />
          ))}
          {view.after > 0 && <tr aria-hidden="true" style={{ height: view.after }} />}
        </TableBody>
      </table>
      {loadingMore && (
        <p className="px-3 py-2 text-xs text-muted-foreground" data-testid="users-loading-more">
          Loading more users...
        </p>
      )}
    </div>
  );
}

function UserRow({
  user,
  index,
  selected,
  onSelect,
}: {
  user: AdminUserListItem;
  /** Position in the whole list (0 first). */
  index: number;
  selected: boolean;
  onSelect: () => void;
}) {
  const level = engagementLevel(user.analytics.totalMessages);
  const sentiment = sentimentLabel(user.analytics.averageSentiment);
  return (
    <TableRow
      data-testid="user-row"
      data-user-id={user.id}
      data-index={index}
      aria-rowindex={index + 2}
      data-state={selected ? 'selected' : undefined}
      onClick={onSelect}
      className="cursor-pointer"
    >
      <TableCell
        data-column="phoneNumber"
        data-value={user.phoneNumber}
        className="font-medium whitespace-nowrap"
      >
        <button
          type="button"
          aria-pressed={selected}
          onClick={(event) => {
            event.stopPropagation();
            onSelect();
          }}
          className="cursor-pointer rounded hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {formatPhoneNumber(user.phoneNumber)}
        </button>
      </TableCell>
      <TableCell data-column="region">
        {user.profile.region === null ? (
          <span className="text-muted-foreground">—</span>
        ) : (
          // A region is free text: a long one is cut (full on hover) so the table fits 1440 px.
          <span className="block max-w-36 truncate" title={user.profile.region}>
            {user.profile.region}
          </span>
        )}
      </TableCell>
      <TableCell data-column="isActive">
        <ActiveBadge active={user.isActive} />
      </TableCell>
      <TableCell data-column="totalMessages" className="text-right tabular-nums">
        {formatNumber(user.analytics.totalMessages)}
      </TableCell>
      <TableCell data-column="engagement">
        <Badge variant="outline" className={ENGAGEMENT_CLASSES[level]}>
          {level}
        </Badge>
      </TableCell>
      <TableCell data-column="sentiment">
        <Badge variant={sentimentBadgeVariant(sentiment)}>{sentiment}</Badge>
      </TableCell>
      <TableCell data-column="totalCost" className="text-right tabular-nums">
        {formatDollars(user.analytics.totalCost, 4)}
      </TableCell>
      <TableCell data-column="profileCompletionScore" className="text-right tabular-nums">
        {user.profileCompletionScore}%
      </TableCell>
      <TableCell data-column="createdAt" data-value={user.createdAt} className="whitespace-nowrap">
        {formatDate(user.createdAt)}
      </TableCell>
      <TableCell
        data-column="lastMessageAt"
        data-value={user.lastMessageAt ?? ''}
        className="whitespace-nowrap"
      >
        {formatRelativeTime(user.lastMessageAt)}
      </TableCell>
    </TableRow>
  );
}
