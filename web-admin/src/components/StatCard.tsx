import { formatNumber } from '@sprout/ui';
import { HeadedCard } from './HeadedCard';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { type QueryKey, useQuery, type UseQueryOptions } from '@tanstack/react-query';

type Tone = 'default' | 'warning';

/** One stat card of the Dashboard, Users and Messages screens. */
function StatCard({
  title,
  icon: Icon,
  value,
  detail,
  testId,
  tone = 'default',
  measures,
}: {
  title: string;
  icon: LucideIcon;
  value: ReactNode;
  detail: ReactNode;
  testId: string;
  tone?: Tone;
  /** What the figure measures, when its title alone could be read more than one way. */
  measures?: string;
}) {
  return (
    <HeadedCard
      data-testid={testId}
      title={title}
      heading="h2"
      titleClassName="text-sm font-medium text-muted-foreground"
      aside={
        <Icon
          className={tone === 'warning' ? 'size-4 text-destructive' : 'size-4 text-primary'}
          aria-hidden="true"
        />
      }
    >
      <p className="text-3xl font-bold tracking-tight" data-testid={`${testId}-value`}>
        {value}
      </p>
      <p className="mt-1 text-xs text-muted-foreground" data-testid={`${testId}-detail`}>
        {detail}
      </p>
      {measures !== undefined && (
        <p className="mt-2 border-t pt-2 text-xs text-muted-foreground" data-testid={`${testId}-measures`}>
          {measures}
        </p>
      )}
    </HeadedCard>
  );
}

/** A card of a StatCardRow; its figures are read from the row's data once there is some. */
export interface StatCardDef<T> {
  testId: string;
  title: string;
  icon: LucideIcon;
  value: (data: T) => ReactNode;
  /** A fixed text, or one read from the data (until then the card's or the row's `pendingDetail`). */
  detail: ReactNode | ((data: T) => ReactNode);
  pendingDetail?: ReactNode;
  /** Without data, a tone read from the data is 'default'. */
  tone?: Tone | ((data: T) => Tone);
  measures?: string;
}

/** A card showing one count of the data, as formatNumber writes it. */
export const countCard = <T,>(
  testId: string,
  title: string,
  icon: LucideIcon,
  count: (data: T) => number,
  detail: StatCardDef<T>['detail'],
): StatCardDef<T> => ({ testId, title, icon, value: (data) => formatNumber(count(data)), detail });

interface StatCardRowProps<T> {
  label: string;
  className: string;
  data: T | undefined;
  placeholder: string;
  pendingDetail?: ReactNode;
  cards: readonly StatCardDef<T>[];
}

/** A row of stat cards over one answer: `placeholder` stands for every value until it is there. */
export function StatCardRow<T>({
  label,
  className,
  data,
  placeholder,
  pendingDetail = '',
  cards,
}: StatCardRowProps<T>) {
  return (
    <section aria-label={label} className={className}>
      {cards.map(({ detail, tone, ...card }) => (
        <StatCard
          key={card.testId}
          testId={card.testId}
          title={card.title}
          icon={card.icon}
          value={data === undefined ? placeholder : card.value(data)}
          detail={
            typeof detail !== 'function'
              ? detail
              : data === undefined
                ? (card.pendingDetail ?? pendingDetail)
                : detail(data)
          }
          tone={typeof tone !== 'function' ? tone : data === undefined ? 'default' : tone(data)}
          measures={card.measures}
        />
      ))}
    </section>
  );
}

/** The red box shown in place of a failed section. */
export function FailureNotice({ children }: { children: ReactNode }) {
  return (
    <p
      role="alert"
      className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm text-destructive"
    >
      {children}
    </p>
  );
}

/** A StatCardRow over one query's answer; when the query fails, `failed` stands in its place. */
export function QueryStatCardRow<T, K extends QueryKey>({
  query,
  failed,
  ...row
}: Omit<StatCardRowProps<T>, 'data'> & { query: UseQueryOptions<T, Error, T, K>; failed: string }) {
  const { data, isError } = useQuery(query);
  if (isError) return <FailureNotice>{failed}</FailureNotice>;
  return <StatCardRow data={data} {...row} />;
}
