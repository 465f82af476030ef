import type { TestUserDto } from '@sprout/contracts';
import {
  Badge,
  Button,
  cn,
  ConfirmDialog,
  formatNumber,
  LoadingText,
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
  toast,
} from '@sprout/ui';
import { Copy, Trash2, UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormField, TextField } from '../../components/FormField';
import { SectionCard } from '../../components/SectionCard';
import {
  conversationRequestsSettled,
  createTestUserMutation,
  deleteTestUserMutation,
  testUsersQuery,
} from './queries';
import { copyMobileChatLink } from './copy-link';
import { failureDescription } from './failure';
import { LIVE_MODEL_LABEL, LIVE_MODEL_VALUE, simulatorTexts } from './texts';

const LOADING_MODELS_VALUE = 'loading';
const DELETE_CONFIRM =
  'The test user and all their conversations and messages are deleted. This cannot be undone.';
import { useModelChoices } from './useModelChoices';

function CreateTestUserForm({ onCreated }: { onCreated: (userId: string) => void }) {
  const create = useMutation(createTestUserMutation(useQueryClient()));
  const [modelsWanted, setModelsWanted] = useState(false);
  const { models, loading: modelsLoading } = useModelChoices(modelsWanted);
  const [name, setName] = useState('');
  const [model, setModel] = useState<string>(LIVE_MODEL_VALUE);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const testUserName = name.trim();
    if (!testUserName) {
      toast({ variant: 'destructive', title: 'Error', description: simulatorTexts.nameRequired });
      return;
    }
    create.mutate(
      { body: { testUserName, ...(model === LIVE_MODEL_VALUE ? {} : { testUserModel: model }) } },
      {
        onSuccess: (created) => {
          setName('');
          setModel(LIVE_MODEL_VALUE);
          toast({ title: 'Test User Created', description: `${created.testUserName} is ready to chat.` });
          onCreated(created.id);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error',
            description: failureDescription(error, simulatorTexts.createFailed),
          }),
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" data-testid="create-test-user-form">
      <TextField
        id="test-user-name"
        label="Test user name"
        placeholder="e.g. Tomato Tess"
        maxLength={100}
        aria-required="true"
        value={name}
        onValueChange={setName}
      />
      <FormField id="test-user-model" label="Model (optional)">
        <Select
          value={model}
          onValueChange={setModel}
          onOpenChange={(open) => {
            if (open) setModelsWanted(true);
          }}
        >
          <SelectTrigger id="test-user-model">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={LIVE_MODEL_VALUE}>{LIVE_MODEL_LABEL}</SelectItem>
            {modelsLoading ? (
              <SelectItem value={LOADING_MODELS_VALUE} disabled>
                Loading models...
              </SelectItem>
            ) : (
              models.map((m) => (
                <SelectItem key={m} value={m}>
                  {m}
                </SelectItem>
              ))
            )}
          </SelectContent>
        </Select>
      </FormField>
      <Button type="submit" disabled={create.isPending}>
        <UserPlus aria-hidden="true" />
        {create.isPending ? 'Creating...' : 'Create User'}
      </Button>
    </form>
  );
}

function TestUserRow({
  user,
  selected,
  onSelect,
  onDeleted,
}: {
  user: TestUserDto;
  selected: boolean;
  onSelect: () => void;
  onDeleted: (userId: string) => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation(deleteTestUserMutation(queryClient));
  // Deleting takes the user's messages with it: only after a confirmation.
  const [confirming, setConfirming] = useState(false);

  function onConfirmDelete() {
    // The selection goes first, so its 2 s conversation poll stops, and a poll already sent is
    // answered before the user is deleted.
    onDeleted(user.id);
    void conversationRequestsSettled(user.id).then(() =>
      remove.mutate(
        { params: { id: user.id } },
        {
          onSuccess: () => {
            setConfirming(false);
            toast({
              title: 'Test User Deleted',
              description: `${user.testUserName} and their messages are gone.`,
            });
          },
          onError: (error) => {
            setConfirming(false);
            toast({
              variant: 'destructive',
              title: 'Error',
              description: failureDescription(error, simulatorTexts.deleteFailed),
            });
          },
        },
      ),
    );
  }

  return (
    <li
      data-testid="test-user"
      className={cn(
        'flex items-center gap-1 rounded-lg border p-1 transition-colors',
        selected ? 'border-primary bg-secondary' : 'border-border bg-card hover:bg-muted/60',
      )}
    >
      <button
        type="button"
        onClick={onSelect}
        aria-pressed={selected}
        className="min-w-0 flex-1 cursor-pointer rounded-md px-2 py-1.5 text-left focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {/* Cut to the column's width: the full name shows on hover. */}
        <span
          className="block truncate text-sm font-medium"
          title={user.testUserName}
          data-testid="test-user-name"
        >
          {user.testUserName}
        </span>
        <span className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
          <Badge
            variant="outline"
            className="block max-w-full truncate font-normal"
            title={user.testUserModel ?? 'Live model'}
          >
            {user.testUserModel ?? 'Live model'}
          </Badge>
          <span data-testid="test-user-messages">
            {formatNumber(user.totalMessages)} {user.totalMessages === 1 ? 'message' : 'messages'}
          </span>
          {!user.isActive && <Badge variant="secondary">Inactive</Badge>}
        </span>
      </button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={`Copy mobile chat link for ${user.testUserName}`}
        title="Copy mobile chat link"
        onClick={() => void copyMobileChatLink(user.id, user.testUserName)}
      >
        <Copy aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
        aria-label={`Delete ${user.testUserName}`}
        title="Delete test user"
        disabled={remove.isPending}
        onClick={() => setConfirming(true)}
      >
        <Trash2 aria-hidden="true" />
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${user.testUserName}?`}
        description={DELETE_CONFIRM}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        destructive
        onConfirm={onConfirmDelete}
        testId="delete-test-user-dialog"
      />
    </li>
  );
}

/** Left column: create test users, pick one, copy their mobile chat link or delete them. */
export function TestUsersPanel({
  selectedUserId,
  onSelect,
  onDeleted,
}: {
  selectedUserId: string | null;
  onSelect: (userId: string) => void;
  /** Deleting the selected user clears the selection. */
  onDeleted: (userId: string) => void;
}) {
  const { data: users, isPending, isError } = useQuery(testUsersQuery);
  return (
    <SectionCard
      title="Test Users"
      description="Simulated gardeners for trying Sprout."
      testId="test-users-panel"
      className="flex h-[900px] flex-col"
      headerClassName="pb-4"
      contentClassName="flex min-h-0 flex-1 flex-col gap-4"
    >
      <CreateTestUserForm onCreated={onSelect} />
      <div className="min-h-0 flex-1 overflow-y-auto border-t border-border pt-3">
        {isPending ? (
          <LoadingText>{simulatorTexts.loadingUsers}</LoadingText>
        ) : isError ? (
          <p role="alert" className="py-6 text-center text-sm text-destructive">
            Failed to fetch test users
          </p>
        ) : users.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No test users yet</p>
        ) : (
          <ul className="flex flex-col gap-2" aria-label="Test users" data-testid="test-users">
            {users.map((user) => (
              <TestUserRow
                key={user.id}
                user={user}
                selected={user.id === selectedUserId}
                onSelect={() => onSelect(user.id)}
                onDeleted={onDeleted}
              />
            ))}
          </ul>
        )}
      </div>
    </SectionCard>
  );
}
