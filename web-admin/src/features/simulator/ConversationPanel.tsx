import {
  type api,
  type EndpointRequest,
  MESSAGE_MAX_LENGTH,
  type SimulatorConversationResponse,
} from '@sprout/contracts';
import {
  ApiError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatPhoneNumber,
  Input,
  Label,
  LoadingText,
  Textarea,
  toast,
} from '@sprout/ui';
import { MessageSquare, Send } from 'lucide-react';
import { type ComponentProps, type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sendSimulatorMessageMutation, simulatorConversationQuery } from './queries';
import { ChatMessage } from './ChatMessage';
import { failureDescription } from './failure';
import { IMAGE_CONTENT_TYPE, simulatorTexts } from './texts';

/** How close to the bottom (px) still counts as "reading the newest messages". */
const STICK_TO_BOTTOM_PX = 48;

/**
 * Keeps a scroll container at its newest (bottom) entry: whenever `newestKey` changes, and while
 * the reader stays at the bottom as content grows (an image finishing loading, for instance).
 */
export function useScrollToNewest(newestKey: string | undefined) {
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onScroll = () => {
      atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    const observer = new ResizeObserver(() => {
      if (atBottom.current) element.scrollTo({ top: element.scrollHeight });
    });
    for (const child of Array.from(element.children)) observer.observe(child);
    return () => {
      element.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [newestKey]);

  useEffect(() => {
    const element = ref.current;
    if (!element || newestKey === undefined) return;
    atBottom.current = true;
    element.scrollTo({ top: element.scrollHeight });
  }, [newestKey]);

  return ref;
}

/** Enter sends, Shift+Enter adds a newline. */
function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>, send: () => void) {
  if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
  event.preventDefault();
  send();
}

/** A test user's message box, labelled "Message" for screen readers only: Enter calls `onSend`. */
export function MessageBox({
  id,
  text,
  onTextChange,
  onSend,
  ...textarea
}: Omit<ComponentProps<typeof Textarea>, 'value' | 'onChange' | 'onKeyDown' | 'maxLength'> & {
  id: string;
  text: string;
  onTextChange: (text: string) => void;
  onSend: () => void;
}) {
  return (
    <>
      <Label htmlFor={id} className="sr-only">
        Message
      </Label>
      <Textarea
        id={id}
        maxLength={MESSAGE_MAX_LENGTH}
        value={text}
        onChange={(e) => onTextChange(e.target.value)}
        onKeyDown={(e) => sendOnEnter(e, onSend)}
        {...textarea}
      />
    </>
  );
}

/** A 4xx answer means the server refused the message (nothing stored): give the text back to edit. */
const wasRefused = (error: unknown): boolean =>
  error instanceof ApiError && error.status >= 400 && error.status < 500;

/**
 * Sends test users' messages: 'No Reply' when Sprout sent none; a failure's toast, and for a
 * message the server refused (nothing stored) `restore` gives the typed text back.
 */
export function useSendTestMessage() {
  const send = useMutation(sendSimulatorMessageMutation(useQueryClient()));
  const sendMessage = (request: EndpointRequest<typeof api.simulator.sendMessage>, restore: () => void) =>
    send.mutate(request, {
      onSuccess: (answer) => {
        if (answer.reply === null) toast(simulatorTexts.noReply);
      },
      onError: (sendError) => {
        if (wasRefused(sendError)) restore();
        toast({
          variant: 'destructive',
          title: 'Error',
          description: failureDescription(sendError, simulatorTexts.sendFailed),
        });
      },
    });
  return { send, sendMessage };
}

function Messages({
  conversation,
  sending,
}: {
  conversation: SimulatorConversationResponse;
  sending: boolean;
}) {
  const newest = conversation.messages.at(-1);
  const scrollRef = useScrollToNewest(newest === undefined ? '' : `${newest.id}:${String(sending)}`);
  return (
    <div
      ref={scrollRef}
      className="min-h-0 flex-1 overflow-y-auto rounded-lg bg-muted/40 p-3 sm:p-4"
      tabIndex={0}
      data-testid="conversation-scroll"
    >
      {conversation.messages.length === 0 && !sending ? (
        <p className="py-10 text-center text-sm text-muted-foreground">
          No messages yet. Send the first one below.
        </p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="Conversation" data-testid="conversation-messages">
          {conversation.messages.map((message) => (
            <ChatMessage key={message.id} message={message} />
          ))}
        </ol>
      )}
      {sending && (
        <p role="status" className="mt-3 text-sm text-muted-foreground" data-testid="waiting-for-reply">
          Sprout is writing a reply...
        </p>
      )}
    </div>
  );
}

/** Centre column: the selected test user's conversation and the message box. */
export function ConversationPanel({ userId }: { userId: string | null }) {
  const { data: conversation, isPending, isError, error } = useQuery(simulatorConversationQuery(userId));
  const { send, sendMessage } = useSendTestMessage();
  const [text, setText] = useState('');
  const [imageUrl, setImageUrl] = useState('');
  const sending = send.isPending && send.variables.body.userId === userId;

  function submit() {
    const messageContent = text.trim();
    const image = imageUrl.trim();
    if (userId === null || (!messageContent && !image)) {
      toast({ variant: 'destructive', title: 'Error', description: simulatorTexts.sendRequirements });
      return;
    }
    const sentText = text;
    const sentImage = imageUrl;
    setText('');
    setImageUrl('');
    sendMessage(
      {
        body: {
          userId,
          messageContent,
          ...(image ? { imageUrl: image, contentType: IMAGE_CONTENT_TYPE } : {}),
        },
      },
      () => {
        setText((current) => current || sentText);
        setImageUrl((current) => current || sentImage);
      },
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submit();
  }

  const user = conversation?.user;
  return (
    <Card className="flex h-[900px] min-w-0 flex-col" data-testid="conversation-panel">
      <CardHeader className="pb-4">
        <CardTitle asChild className="flex items-center gap-2">
          <h2 className="min-w-0">
            <MessageSquare className="size-5 shrink-0 text-primary" aria-hidden="true" />
            <span className="truncate" title={user?.testUserName}>
              {user ? user.testUserName : 'Conversation'}
            </span>
          </h2>
        </CardTitle>
        <CardDescription>
          {user
            ? `${formatPhoneNumber(user.phoneNumber)} · ${user.testUserModel ?? 'Live model'}`
            : 'Select a test user to see their conversation.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex min-h-0 flex-1 flex-col gap-3">
        {userId === null ? (
          <div className="flex flex-1 items-center justify-center rounded-lg bg-muted/40 p-6 text-center text-sm text-muted-foreground">
            Create or select a test user on the left to start chatting with Sprout.
          </div>
        ) : isPending ? (
          <div className="flex-1">
            <LoadingText>{simulatorTexts.loadingConversation}</LoadingText>
          </div>
        ) : isError ? (
          <p role="alert" className="flex-1 py-6 text-center text-sm text-destructive">
            {error instanceof ApiError && error.status === 404
              ? 'This test user no longer exists.'
              : 'Failed to fetch conversation'}
          </p>
        ) : (
          <Messages conversation={conversation} sending={sending} />
        )}
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2" data-testid="message-form">
          <MessageBox
            id="simulator-message"
            rows={3}
            placeholder="Type a message... (Enter sends, Shift+Enter adds a line)"
            text={text}
            onTextChange={setText}
            onSend={submit}
          />
          <div className="flex flex-col gap-2 sm:flex-row">
            <Label htmlFor="simulator-image-url" className="sr-only">
              Image URL (optional)
            </Label>
            <Input
              id="simulator-image-url"
              type="url"
              inputMode="url"
              placeholder="Image URL (optional)"
              value={imageUrl}
              onChange={(e) => setImageUrl(e.target.value)}
            />
            <Button type="submit" disabled={sending} className="sm:w-28">
              <Send aria-hidden="true" />
              {sending ? 'Sending...' : 'Send'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
