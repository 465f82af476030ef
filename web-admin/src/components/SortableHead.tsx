import { cn, TableHead } from '@sprout/ui';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';

type Direction = 'asc' | 'desc';

function SortIcon({ active, direction, dense }: { active: boolean; direction?: Direction; dense: boolean }) {
  const size = dense ? 'size-3 shrink-0' : 'size-3.5';
  if (!active) return <ArrowUpDown className={cn(size, 'opacity-50')} aria-hidden="true" />;
  return direction === 'asc' ? (
    <ArrowUp className={size} aria-hidden="true" />
  ) : (
    <ArrowDown className={size} aria-hidden="true" />
  );
}

/**
 * A column header that sorts its table on click, saying the current direction in aria-sort.
 * `dense`: the tighter type of a table with many columns.
 */
export function SortableHead<K extends string>({
  column,
  sort,
  onSort,
  dense = false,
}: {
  column: { key: K; label: string; align?: 'left' | 'right' };
  sort: { key: K; direction: Direction } | null;
  onSort: (key: K) => void;
  dense?: boolean;
}) {
  const active = sort?.key === column.key;
  return (
    <TableHead
      data-column={column.key}
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={cn(dense && 'tracking-normal', column.align === 'right' && 'text-right')}
    >
      <button
        type="button"
        onClick={() => onSort(column.key)}
        className={cn(
          'inline-flex cursor-pointer items-center rounded uppercase hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
          dense ? 'gap-0.5' : 'gap-1',
          active && 'text-foreground',
        )}
      >
        {column.label}
        <SortIcon active={active} direction={sort?.direction} dense={dense} />
      </button>
    </TableHead>
  );
}
