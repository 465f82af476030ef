import { api, endpointUrl } from '@sprout/contracts';
import { LoadingText } from '@sprout/ui';
import { Users } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { PageHeader } from '../../components/PageHeader';
import { useTestDataMode } from '../../test-data-mode';
import { useUserList } from './queries';
import { EmptyState } from '../../components/EmptyState';
import { SearchBox } from '../../components/SearchBox';
import { SectionCard } from '../../components/SectionCard';
import { FailureNotice } from '../../components/StatCard';
import { usersTexts } from './texts';
import { UserDetailPanel } from './UserDetailPanel';
import { UserStatCards } from './UserStatCards';
import { DEFAULT_USER_SORT, nextUserSort, type UserSort } from './user-sorting';
import { UserTable } from './UserTable';

/** /admin/users: stat cards, the searchable sortable user table and the selected user's panel. */
export default function UsersPage() {
  const { showTestData } = useTestDataMode();
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.get('search') ?? '';
  const [sort, setSort] = useState<UserSort>(DEFAULT_USER_SORT);
  // The chosen user belongs to the Test Data Mode it was chosen in.
  const [chosen, setChosen] = useState<{ id: string; showTestData: boolean } | null>(null);
  const { users, total, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage } = useUserList(
    search,
    sort,
  );
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  // A search finding exactly one user (the Messages screen's phone link) opens that user.
  const onlyMatch = search.trim() !== '' && users?.length === 1 ? (users[0]?.id ?? null) : null;
  const selectedId = (chosen?.showTestData === showTestData ? chosen.id : null) ?? onlyMatch;

  // A click on a user brings their panel (under the table) into view when it is off screen.
  const panelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const panel = panelRef.current;
    if (chosen === null || panel === null) return;
    if (panel.getBoundingClientRect().top > window.innerHeight - 120)
      panel.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [chosen]);

  const onSearch = (value: string) => {
    setSearchParams(value === '' ? {} : { search: value }, { replace: true });
  };

  return (
    <>
      <PageHeader
        title="User Management"
        description={showTestData ? 'Test users and their conversations' : 'Gardeners texting Sprout'}
      />
      <div className="flex flex-col gap-6">
        <UserStatCards />
        <SectionCard
          title="Users"
          description="Click a user to see their profile, analytics and conversations."
          headerClassName="gap-4 sm:flex-row sm:items-end sm:justify-between"
          // Narrower side padding: the ten columns fit a 1440 px screen beside the sidebar.
          contentClassName="px-4"
          action={
            <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row sm:items-center">
              <SearchBox
                label="Search users by phone number"
                placeholder={usersTexts.searchPlaceholder}
                value={search}
                onChange={onSearch}
                className="w-full sm:w-72"
              />
              <DownloadCsvButton
                href={endpointUrl(api.users.export, {
                  query: {
                    ...(search.trim() ? { search: search.trim() } : {}),
                    showTestUsers: showTestData,
                    sort: sort.key,
                    order: sort.direction,
                  },
                })}
                label="Download these users as CSV"
              />
            </div>
          }
        >
          {isPending || users === undefined ? (
            isError ? (
              <FailureNotice>{usersTexts.usersFailed}</FailureNotice>
            ) : (
              <LoadingText>{usersTexts.loadingUsers}</LoadingText>
            )
          ) : users.length === 0 ? (
            <EmptyState
              icon={Users}
              title={usersTexts.noUsersTitle}
              hint={search.trim() !== '' ? usersTexts.noSearchMatch : usersTexts.noUsersYet}
              testId="users-empty"
            />
          ) : (
            <UserTable
              users={users}
              total={total}
              sort={sort}
              onSort={(key) => setSort((current) => nextUserSort(current, key))}
              selectedId={selectedId}
              onSelect={(id) => setChosen({ id, showTestData })}
              hasMore={hasNextPage}
              loadingMore={isFetchingNextPage}
              onLoadMore={loadMore}
              resetKey={`${search.trim()}|${sort.key}|${sort.direction}|${showTestData}`}
            />
          )}
        </SectionCard>
        <div ref={panelRef} className="scroll-mt-4">
          {selectedId !== null && <UserDetailPanel key={selectedId} userId={selectedId} />}
        </div>
      </div>
    </>
  );
}
