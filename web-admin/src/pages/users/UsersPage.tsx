import { Card, CardContent, CardDescription, CardHeader, CardTitle, Input, LoadingText } from '@sprout/ui';
import { Search, Users } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useTestDataMode } from '../../hooks/useTestDataMode';
import { useUsers } from '../../hooks/useUsers';
import { FailureNotice } from './StatCard';
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
  const { data: users, isPending, isError } = useUsers(search);

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
            <div className="relative w-full sm:max-w-xs">
              <Search
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                type="search"
                aria-label="Search users by phone number"
                placeholder={usersTexts.searchPlaceholder}
                value={search}
                onChange={(event) => onSearch(event.target.value)}
                className="pl-9"
              />
            </div>
          </CardHeader>
          <CardContent>
            {isPending ? (
              <LoadingText>{usersTexts.loadingUsers}</LoadingText>
            ) : isError ? (
              <FailureNotice>{usersTexts.usersFailed}</FailureNotice>
            ) : users.length === 0 ? (
              <div className="flex flex-col items-center gap-2 py-12 text-center" data-testid="users-empty">
                <Users className="size-10 text-muted-foreground" aria-hidden="true" />
                <h3 className="text-lg font-semibold">{usersTexts.noUsersTitle}</h3>
                <p className="text-sm text-muted-foreground">
                  {search.trim() !== '' ? usersTexts.noSearchMatch : usersTexts.noUsersYet}
                </p>
              </div>
            ) : (
              <UserTable
                users={users}
                sort={sort}
                onSort={(key) => setSort((current) => nextUserSort(current, key))}
                selectedId={selectedId}
                onSelect={(id) => setChosen({ id, showTestData })}
              />
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
