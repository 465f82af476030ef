import type { ConversationDto } from '@sprout/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatDateTime,
  formatNumber,
  formatPhoneNumber,
  toast,
} from '@sprout/ui';
import { MessagesSquare, RefreshCw } from 'lucide-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkDeliveryMutation } from './queries';
import { EmptyState } from '../../components/EmptyState';
import { sentimentLabel } from '../users/engagement';
import { ConversationThread } from './ConversationThread';
import { checkDeliveryToasts, messagesTexts } from './texts';
import { ActiveBadge } from '../../components/ActiveBadge';

const none = <span className="text-muted-foreground">—</span>;

/** The right pane: the selected conversation's messages and details, or 'No conversation selected'. */
export function ConversationPane({ conversation }: { conversation: ConversationDto | null }) {
  if (conversation === null) {
    return (
      <Card className="flex min-h-96 items-center justify-center p-8">
        <EmptyState
          icon={MessagesSquare}
          title={messagesTexts.noSelection}
          hint={messagesTexts.noSelectionHint}
          testId="no-selection"
          headingLevel={2}
          className="py-0"
        />
      </Card>
    );
  }
  return <SelectedConversation key={conversation.id} conversation={conversation} />;
}

function SelectedConversation({ conversation }: { conversation: ConversationDto }) {
  return (
    <Card data-testid="conversation-pane">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <CardTitle asChild>
            <h2>{formatPhoneNumber(conversation.phoneNumber)}</h2>
          </CardTitle>
          <CardDescription>
            Started {formatDateTime(conversation.startTime)} · {formatNumber(conversation.messageCount)}{' '}
            messages
          </CardDescription>
        </div>
        {!conversation.userActive && <CheckDeliveryButton conversationId={conversation.id} />}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ConversationThread
          conversation={conversation}
          className="h-[520px]"
          testId="conversation-details"
          rows={[
            { label: 'User ID', value: <code className="text-xs">{conversation.userId}</code> },
            { label: 'Message Count', value: formatNumber(conversation.messageCount) },
            { label: 'User Status', value: <ActiveBadge active={conversation.userActive} /> },
            { label: 'Start Time', value: formatDateTime(conversation.startTime) },
            { label: 'Region', value: conversation.region ?? none },
            { label: 'Sentiment', value: sentimentLabel(conversation.sentiment) },
            { label: 'Last Message', value: conversation.lastMessage ?? none },
            {
              label: 'Topics',
              value: conversation.topicsDiscussed.length > 0 ? conversation.topicsDiscussed.join(', ') : none,
            },
            { label: 'Experience Level', value: conversation.experienceLevel ?? none },
            { label: 'Model Used', value: conversation.modelUsed ?? none },
          ]}
        />
      </CardContent>
    </Card>
  );
}

function CheckDeliveryButton({ conversationId }: { conversationId: string }) {
  const check = useMutation(checkDeliveryMutation(useQueryClient()));
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={check.isPending}
      onClick={() =>
        check.mutate(
          { params: { id: conversationId }, body: {} },
          {
            onSuccess: () => toast(checkDeliveryToasts.success),
            onError: () => toast({ variant: 'destructive', ...checkDeliveryToasts.failure }),
          },
        )
      }
    >
      <RefreshCw className={check.isPending ? 'animate-spin' : undefined} aria-hidden="true" />
      {check.isPending ? messagesTexts.checkingDelivery : messagesTexts.checkDelivery}
    </Button>
  );
}
