import {
  ApiError,
  Button,
  cn,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
  LoadingText,
  toast,
} from '@sprout/ui';
import { ArrowLeft, ChartColumn, type LucideIcon, Send, Sprout, UserRound } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { authStatusQuery } from '../auth/queries';
import { ChatMessage } from '../simulator/ChatMessage';
import { MessageBox, useScrollToNewest, useSendTestMessage } from '../simulator/ConversationPanel';
import { simulatorConversationQuery } from '../simulator/queries';
import { simulatorTexts } from '../simulator/texts';
import { AnalyticsDetails, ProfileDetails } from '../simulator/UserInsights';

const LOGIN_PATH = '/admin/login';

/** A header button opening one of the test user's insights in a dialog. */
function InsightDialog({
  label,
  icon: Icon,
  title,
  description,
  children,
}: {
  label: string;
  icon: LucideIcon;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className="size-9" aria-label={label}>
          <Icon aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

function MobileChat({ userId }: { userId: string }) {
  const { data: conversation, isPending, isError, error } = useQuery(simulatorConversationQuery(userId));
  const { send, sendMessage } = useSendTestMessage();
  const [text, setText] = useState('');
  const newest = conversation?.messages.at(-1);
  const scrollRef = useScrollToNewest(
    conversation === undefined ? undefined : `${newest?.id ?? ''}:${String(send.isPending)}`,
  );

  function submit() {
    const messageContent = text.trim();
    if (!messageContent) {
      toast({ variant: 'destructive', title: 'Error', description: simulatorTexts.messageRequired });
      return;
    }
    setText('');
    sendMessage({ body: { userId, messageContent } }, () => setText((current) => current || messageContent));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submit();
  }

  const user = conversation?.user;
  // 404: no such test user (deleted, say); 400: the link's id is not a user id at all.
  const notFound = isError && error instanceof ApiError && (error.status === 404 || error.status === 400);
  // Nothing to send into until the conversation has loaded; when it could not be, say why.
  const cannotSend = notFound || conversation === undefined;
  const whyNot = notFound
    ? 'Messages cannot be sent: there is no test user with this id.'
    : isError && conversation === undefined
      ? 'Messages cannot be sent until the conversation loads. Sprout tries again every 2 seconds.'
      : null;

  return (
    <main className="mx-auto flex h-dvh w-full max-w-md flex-col bg-background sm:border-x sm:border-border">
      <title>{`Mobile chat${user ? ` · ${user.testUserName}` : ''} · Sprout Admin`}</title>
      <header className="flex items-center gap-2 border-b border-border bg-sidebar px-3 py-2.5">
        <Button asChild variant="ghost" size="icon" className="size-9">
          <Link
            to={`/admin/ai-simulator?user=${encodeURIComponent(userId)}`}
            aria-label="Back to Conversation Testing"
          >
            <ArrowLeft aria-hidden="true" />
          </Link>
        </Button>
        <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-primary-foreground">
          <Sprout className="size-5" aria-hidden="true" />
        </span>
        <h1 className="min-w-0 flex-1 leading-tight">
          <span className="block text-xs font-medium text-muted-foreground">Mobile chat</span>
          <span
            className="block truncate font-semibold"
            title={user?.testUserName}
            data-testid="mobile-chat-user"
          >
            {user?.testUserName ?? 'Test user'}
          </span>
        </h1>
        {conversation && (
          <>
            <InsightDialog
              label="Analytics"
              icon={ChartColumn}
              title="User Analytics"
              description={`${conversation.user.testUserName}'s conversation so far.`}
            >
              <AnalyticsDetails analytics={conversation.analytics} />
            </InsightDialog>
            <InsightDialog
              label="Profile"
              icon={UserRound}
              title="User Profile"
              description="Learned by Sprout from the conversation."
            >
              <ProfileDetails profile={conversation.userProfile} />
            </InsightDialog>
          </>
        )}
      </header>

      <div
        ref={scrollRef}
        className="min-h-0 flex-1 overflow-y-auto bg-muted/40 px-3 py-4"
        tabIndex={0}
        data-testid="conversation-scroll"
      >
        {isPending ? (
          <LoadingText>{simulatorTexts.loadingConversation}</LoadingText>
        ) : notFound ? (
          <p role="alert" className="py-10 text-center text-sm text-muted-foreground">
            This test user does not exist. It may have been deleted in Conversation Testing.
          </p>
        ) : isError ? (
          <p role="alert" className="py-10 text-center text-sm text-destructive">
            Failed to fetch conversation
          </p>
        ) : conversation.messages.length === 0 && !send.isPending ? (
          <p className="py-10 text-center text-sm text-muted-foreground">Text Sprout a gardening question.</p>
        ) : (
          <ol className="flex flex-col gap-2.5" aria-label="Conversation" data-testid="conversation-messages">
            {conversation.messages.map((message) => (
              <ChatMessage key={message.id} message={message} compact />
            ))}
          </ol>
        )}
        {send.isPending && (
          <p role="status" className="mt-3 text-sm text-muted-foreground" data-testid="waiting-for-reply">
            Sprout is writing a reply...
          </p>
        )}
      </div>

      {whyNot !== null && (
        <p
          id="mobile-message-unavailable"
          className="border-t border-border bg-muted/60 px-3 pt-2 text-xs text-muted-foreground"
          data-testid="send-unavailable"
        >
          {whyNot}
        </p>
      )}
      <form
        onSubmit={onSubmit}
        noValidate
        className={cn(
          'flex items-end gap-2 bg-background p-3',
          whyNot === null ? 'border-t border-border' : 'bg-muted/60',
        )}
        data-testid="message-form"
      >
        <MessageBox
          id="mobile-message"
          rows={1}
          placeholder="Text message"
          className="max-h-32 min-h-10 resize-none rounded-2xl"
          text={text}
          onTextChange={setText}
          onSend={submit}
          disabled={cannotSend}
          aria-describedby={whyNot === null ? undefined : 'mobile-message-unavailable'}
        />
        <Button
          type="submit"
          size="icon"
          className="rounded-full"
          aria-label="Send"
          disabled={send.isPending || cannotSend}
        >
          <Send aria-hidden="true" />
        </Button>
      </form>
    </main>
  );
}

/** The compact chat for one test user: only for a signed-in admin. */
export default function MobileConversationPage() {
  const { userId } = useParams();
  const { data: auth, isPending } = useQuery(authStatusQuery);
  const navigate = useNavigate();
  const signedOut = auth !== undefined && !auth.authenticated;

  useEffect(() => {
    if (signedOut) void navigate(LOGIN_PATH, { replace: true });
  }, [signedOut, navigate]);

  if (isPending) return <LoadingText>Loading...</LoadingText>;
  if (signedOut || userId === undefined) return <LoadingText>{simulatorTexts.redirecting}</LoadingText>;
  return <MobileChat userId={userId} />;
}
