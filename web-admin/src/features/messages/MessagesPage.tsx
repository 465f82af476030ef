import { api, type ConversationDto, endpointPath, endpointUrl } from '@sprout/contracts';
import { Card, CardContent, CardHeader, CardTitle, LoadingText } from '@sprout/ui';
import { MessagesSquare } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useTestDataMode } from '../../test-data-mode';
import { conversationPageQuery } from './queries';
import { EmptyState } from '../../components/EmptyState';
import { SearchBox } from '../../components/SearchBox';
import { MessageStatCards } from './MessageStatCards';
import { ConversationList, ConversationPager } from './ConversationList';
import { ConversationPane } from './ConversationPane';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { messagesTexts } from './texts';

/** /admin/messages: stat cards, the searchable paged conversation list and the selected conversation. */
export default function MessagesPage() {
  const { showTestData } = useTestDataMode();
  const [search, setSearch] = useState('');
  // Pages are reached by cursor (keyset): cursors[i] starts page i + 1, so Previous goes back
  // through the pages seen. They belong to the Test Data Mode they were chosen in: a change of
  // mode starts at page 1.
  const [paging, setPaging] = useState<{ cursors: Array<string | null>; showTestData: boolean }>({
    cursors: [null],
    showTestData,
  });
  if (paging.showTestData !== showTestData) setPaging({ cursors: [null], showTestData });
  const cursors = paging.showTestData === showTestData ? paging.cursors : [null];
  const page = cursors.length;
  const cursor = cursors.at(-1) ?? null;
  const firstPage = () => setPaging({ cursors: [null], showTestData });
  // The chosen conversation belongs to the Test Data Mode it was chosen in; it stays open on other pages.
  const [chosen, setChosen] = useState<{ conversation: ConversationDto; showTestData: boolean } | null>(null);
  const { data, isPending, isError, isPlaceholderData } = useQuery(
    conversationPageQuery(page, cursor, search, showTestData),
  );
  const nextCursor = isPlaceholderData ? null : (data?.pagination.nextCursor ?? null);
  const onPage = (next: number) => {
    if (next < page) setPaging({ cursors: cursors.slice(0, Math.max(1, next)), showTestData });
    else if (nextCursor !== null) setPaging({ cursors: [...cursors, nextCursor], showTestData });
  };
  // A page left empty (its rows went since it was reached) gives way to the page before it,
  // asked for again: answers are never stale by themselves, and a page seen before
  // would otherwise show until its next poll.
  const emptied =
    !isPlaceholderData &&
    data !== undefined &&
    data.conversations.length === 0 &&
    data.pagination.nextCursor === null &&
    page > 1;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!emptied) return;
    void queryClient
      .invalidateQueries({ queryKey: [endpointPath(api.messages.list)], refetchType: 'none' })
      .then(() =>
        setPaging((current) => ({
          cursors: current.cursors.length > 1 ? current.cursors.slice(0, -1) : [null],
          showTestData,
        })),
      );
  }, [emptied, showTestData, queryClient]);
  const paneRef = useRef<HTMLDivElement>(null);

  const select = (conversation: ConversationDto) => {
    setChosen({ conversation, showTestData });
    // Below the two-column width the pane sits under the list: bring it into view.
    if (window.matchMedia('(max-width: 1279px)').matches)
      paneRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  const picked = chosen?.showTestData === showTestData ? chosen.conversation : null;
  // The list's copy is the freshest (it is polled).
  const selected = (picked && data?.conversations.find((c) => c.id === picked.id)) ?? picked;

  return (
    <>
      <PageHeader
        title="Messages and Conversations"
        description={showTestData ? 'Conversations of test users' : 'Conversations of real users'}
      />
      <div className="flex flex-col gap-6">
        <MessageStatCards />
        <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <Card className="min-w-0">
            <CardHeader className="gap-3">
              <div className="flex items-center justify-between gap-2">
                <CardTitle asChild>
                  <h2>Conversations</h2>
                </CardTitle>
                <DownloadCsvButton
                  href={endpointUrl(api.messages.export, {
                    query: { ...(search.trim() ? { search: search.trim() } : {}), showTestData },
                  })}
                  label="Download these conversations as CSV"
                />
              </div>
              <SearchBox
                label="Search conversations"
                placeholder={messagesTexts.searchPlaceholder}
                value={search}
                onChange={(value) => {
                  setSearch(value);
                  firstPage();
                }}
              />
            </CardHeader>
            <CardContent>
              {isPending ? (
                <LoadingText>{messagesTexts.loadingConversations}</LoadingText>
              ) : isError ? (
                <p role="alert" className="py-6 text-center text-sm text-destructive">
                  {messagesTexts.conversationsFailed}
                </p>
              ) : data.conversations.length === 0 && data.pagination.nextCursor === null ? (
                <EmptyState
                  icon={MessagesSquare}
                  title={messagesTexts.noConversations}
                  hint={messagesTexts.noConversationsHint}
                  testId="conversations-empty"
                />
              ) : (
                <>
                  {data.conversations.length === 0 ? (
                    // A short-word search looked at a stretch of conversations and found none there.
                    <p
                      className="py-6 text-center text-sm text-muted-foreground"
                      data-testid="conversations-gap"
                    >
                      {messagesTexts.searchGap}
                    </p>
                  ) : (
                    <ConversationList
                      conversations={data.conversations}
                      selectedId={selected?.id ?? null}
                      onSelect={select}
                    />
                  )}
                  <ConversationPager
                    pagination={data.pagination}
                    page={page}
                    onPage={onPage}
                    disabled={isPlaceholderData}
                  />
                </>
              )}
            </CardContent>
          </Card>
          <div className="min-w-0 scroll-mt-4" ref={paneRef}>
            <ConversationPane conversation={selected} />
          </div>
        </div>
      </div>
    </>
  );
}
