import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatNumber,
  LoadingText,
} from '@sprout/ui';
import { Users } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { UserList } from '../../api/users';
import { PageHeader } from '../../components/PageHeader';
import { useTestDataMode } from '../../hooks/useTestDataMode';
import { useUsers } from '../../hooks/useUsers';
import { EmptyState } from '../../components/EmptyState';
import { SearchBox } from '../../components/SearchBox';
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
  const { data, isPending, isError, isPlaceholderData } = useUsers(search);

  // A search finding exactly one user (the Messages screen's phone link) opens that user.
  const onlyMatch = search.trim() !== '' && data?.users.length === 1 ? (data.users[0]?.id ?? null) : null;
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
        <Card>
          <CardHeader className="gap-4 sm:flex-row sm:items-end sm:justify-between">
            <div>
              <CardTitle asChild>
                <h2>Users</h2>
              </CardTitle>
              <CardDescription>
                Click a user to see their profile, analytics and conversations.
              </CardDescription>
            </div>
            <SearchBox
              label="Search users by phone number"
              placeholder={usersTexts.searchPlaceholder}
              value={search}
              onChange={onSearch}
              className="w-full sm:max-w-xs"
            />
          </CardHeader>
          <CardContent>
            {isPending ? (
              <LoadingText>{usersTexts.loadingUsers}</LoadingText>
            ) : isError ? (
              <FailureNotice>{usersTexts.usersFailed}</FailureNotice>
            ) : data.users.length === 0 ? (
              <EmptyState
                icon={Users}
                title={usersTexts.noUsersTitle}
                hint={search.trim() !== '' ? usersTexts.noSearchMatch : usersTexts.noUsersYet}
                testId="users-empty"
              />
            ) : (
              <>
                <UserTable
                  users={data.users}
                  sort={sort}
                  onSort={(key) => setSort((current) => nextUserSort(current, key))}
                  selectedId={selectedId}
                  onSelect={(id) => setChosen({ id, showTestData })}
                />
                {/* The previous search's list stays while the new one loads: no count for it. */}
                {!isPlaceholderData && <ShownOfTotal list={data} searching={search.trim() !== ''} />}
              </>
            )}
          </CardContent>
        </Card>
        <div ref={panelRef} className="scroll-mt-4">
          {selectedId !== null && <UserDetailPanel key={selectedId} userId={selectedId} />}
        </div>
      </div>
    </>
  );
}

/**
 * Under the table when the API sent only the most recently active users (a large data set): the
 * table, and so its sorting, covers those; a search by phone reaches the others.
 */
function ShownOfTotal({ list, searching }: { list: UserList; searching: boolean }) {
  if (list.total <= list.users.length && !list.totalIsCapped) return null;
  const total = `${list.totalIsCapped ? 'more than ' : ''}${formatNumber(list.total)}`;
  return (
    <p className="mt-2 text-xs text-muted-foreground" data-testid="users-shown">
      Showing the {formatNumber(list.users.length)} most recently active of {total}{' '}
      {searching ? 'matching users.' : 'users. Search by phone number to find the others.'}
    </p>
  );
}
