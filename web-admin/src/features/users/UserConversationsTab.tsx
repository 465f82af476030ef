import { api, type ConversationDto, endpointUrl } from '@sprout/contracts';
import { cn, formatDateTime, formatNumber, formatRelativeTime, LoadingText } from '@sprout/ui';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { userConversationsQuery } from './queries';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { ConversationThread } from '../messages/ConversationThread';
import { messagesTexts } from '../messages/texts';
import { usersTexts } from './texts';

/** The user's conversations (a 600 px list) and the selected one's messages and details. */
export function UserConversationsTab({ userId }: { userId: string }) {
  const { data, isPending, isError } = useQuery(userConversationsQuery(userId));
  const [chosenId, setChosenId] = useState<string | null>(null);
  const conversations = data?.conversations ?? [];
  const selected = conversations.find((c) => c.id === chosenId) ?? conversations[0] ?? null;

  if (isPending) return <LoadingText>{messagesTexts.loadingConversations}</LoadingText>;
  if (isError)
    return (
      <p role="alert" className="py-6 text-center text-sm text-destructive">
        {messagesTexts.conversationsFailed}
      </p>
    );
  if (conversations.length === 0)
    return <p className="py-6 text-center text-sm text-muted-foreground">{usersTexts.noConversations}</p>;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-end">
        <DownloadCsvButton
          href={endpointUrl(api.messages.exportUser, { params: { id: userId } })}
          label="Download this user's conversations and messages as CSV"
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
        <ul
          aria-label="Conversations"
          data-testid="user-conversations"
          className="h-[600px] space-y-2 overflow-y-auto rounded-lg border border-border p-2"
        >
          {conversations.map((conversation) => (
            <li key={conversation.id}>
              <button
                type="button"
                data-testid="user-conversation"
                aria-pressed={conversation.id === selected?.id}
                onClick={() => setChosenId(conversation.id)}
                className={cn(
                  'w-full cursor-pointer rounded-md border border-transparent p-3 text-left text-sm hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  conversation.id === selected?.id && 'border-primary/40 bg-secondary',
                )}
              >
                <span className="flex items-center justify-between gap-2 font-medium">
                  {formatDateTime(conversation.startTime)}
                  <span className="text-xs font-normal text-muted-foreground">
                    {formatNumber(conversation.messageCount)} msgs
                  </span>
                </span>
                <span className="mt-1 line-clamp-2 block text-xs text-muted-foreground">
                  {conversation.summary ?? conversation.lastMessage ?? 'No summary yet'}
                </span>
                <span className="mt-1 block text-xs text-muted-foreground">
                  {conversation.endTime === null
                    ? usersTexts.ongoing
                    : `Ended ${formatRelativeTime(conversation.endTime)}`}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {selected && <SelectedConversation conversation={selected} />}
      </div>
    </div>
  );
}

function SelectedConversation({ conversation }: { conversation: ConversationDto }) {
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <ConversationThread
        conversation={conversation}
        className="h-[480px]"
        testId="user-conversation-details"
        rows={[
          { label: 'Message Count', value: formatNumber(conversation.messageCount) },
          { label: 'Start Time', value: formatDateTime(conversation.startTime) },
          {
            label: 'End Time',
            value: conversation.endTime === null ? usersTexts.ongoing : formatDateTime(conversation.endTime),
          },
        ]}
      />
    </div>
  );
}
