import type { ConversationDto } from '@sprout/contracts';
import { Card, CardContent, CardHeader, CardTitle, Input, LoadingText } from '@sprout/ui';
import { MessagesSquare, Search } from 'lucide-react';
import { useRef, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useConversations } from '../../hooks/useConversations';
import { useTestDataMode } from '../../hooks/useTestDataMode';
import { MessageStatCards } from './MessageStatCards';
import { ConversationList, ConversationPager } from './ConversationList';
import { ConversationPane } from './ConversationPane';
import { messagesTexts } from './texts';

/** /admin/messages: stat cards, the searchable paged conversation list and the selected conversation. */
export default function MessagesPage() {
  const { showTestData } = useTestDataMode();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  // The chosen conversation belongs to the Test Data Mode it was chosen in; it stays open on other pages.
  const [chosen, setChosen] = useState<{ conversation: ConversationDto; showTestData: boolean } | null>(null);
  const { data, isPending, isError, error, isPlaceholderData } = useConversations(page, search);
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
              <CardTitle asChild>
                <h2>Conversations</h2>
              </CardTitle>
              <div className="relative">
                <Search
                  className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                  aria-hidden="true"
                />
                <Input
                  type="search"
                  aria-label="Search conversations"
                  placeholder={messagesTexts.searchPlaceholder}
                  value={search}
                  onChange={(event) => {
                    setSearch(event.target.value);
                    setPage(1);
                  }}
                  className="pl-9"
                />
              </div>
            </CardHeader>
            <CardContent>
              {isPending ? (
                <LoadingText>{messagesTexts.loadingConversations}</LoadingText>
              ) : isError ? (
                <p role="alert" className="py-6 text-center text-sm text-destructive">
                  {error.message}
                </p>
              ) : data.conversations.length === 0 ? (
                <div
                  className="flex flex-col items-center gap-2 py-12 text-center"
                  data-testid="conversations-empty"
                >
                  <MessagesSquare className="size-10 text-muted-foreground" aria-hidden="true" />
                  <h3 className="text-lg font-semibold">{messagesTexts.noConversations}</h3>
                  <p className="text-sm text-muted-foreground">{messagesTexts.noConversationsHint}</p>
                </div>
              ) : (
                <>
                  <ConversationList
                    conversations={data.conversations}
                    selectedId={selected?.id ?? null}
                    onSelect={select}
                  />
                  <ConversationPager
                    pagination={data.pagination}
                    onPage={setPage}
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
