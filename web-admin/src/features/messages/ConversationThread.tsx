import type { ConversationDto } from '@sprout/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTestDataMode } from '../../test-data-mode';
import { type DetailRow, DetailsCollapsible, ItemList } from './DetailsCollapsible';
import { MessageThread } from './MessageThread';
import { conversationMessagesQuery } from './queries';

/**
 * A conversation's messages, then its details (closed at first): its id, the caller's `rows`, then
 * its summary, key outcomes and next steps.
 */
export function ConversationThread({
  conversation,
  className,
  testId,
  rows,
}: {
  conversation: ConversationDto;
  /** The thread's height. */
  className: string;
  testId: string;
  rows: readonly DetailRow[];
}) {
  const messages = useQuery(conversationMessagesQuery(conversation.id, useTestDataMode().showTestData));
  return (
    <>
      <MessageThread
        messages={messages.data}
        isPending={messages.isPending}
        isError={messages.isError}
        className={className}
      />
      <DetailsCollapsible
        title="Conversation Details"
        testId={testId}
        rows={[
          { label: 'Conversation ID', value: <code className="text-xs">{conversation.id}</code> },
          ...rows,
          { label: 'Summary', value: conversation.summary ?? 'No summary yet' },
          {
            label: 'Key Outcomes',
            value: <ItemList items={conversation.keyOutcomes} empty="None recorded" />,
          },
          { label: 'Next Steps', value: <ItemList items={conversation.nextSteps} empty="None recorded" /> },
        ]}
      />
    </>
  );
}
