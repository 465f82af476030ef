import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { ConversationPanel } from './ConversationPanel';
import { InsightsPanel } from './InsightsPanel';
import { TestUsersPanel } from './TestUsersPanel';

const USER_PARAM = 'user';

/**
 * The conversation simulator, at /admin/ai-simulator and /ai-conversation-simulator:
 * test users on the left, the conversation in the centre, analytics, profile and help on the
 * right. The selected user is kept in the address (?user=...) so a reload keeps it.
 */
export default function SimulatorPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedUserId = searchParams.get(USER_PARAM);

  const select = (userId: string) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.set(USER_PARAM, userId);
        return next;
      },
      { replace: true },
    );

  // Deleting the selected user clears the selection.
  const clearIfSelected = (userId: string) =>
    setSearchParams(
      (params) => {
        if (params.get(USER_PARAM) !== userId) return params;
        const next = new URLSearchParams(params);
        next.delete(USER_PARAM);
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <PageHeader
        title="Conversation Testing"
        description="Text Sprout as a simulated test user, through the same pipeline as real SMS."
      />
      <div className="grid gap-4 lg:grid-cols-[17rem_minmax(0,1fr)] xl:grid-cols-[16rem_minmax(0,1fr)_17rem] 2xl:grid-cols-[18rem_minmax(0,1fr)_20rem]">
        <TestUsersPanel selectedUserId={selectedUserId} onSelect={select} onDeleted={clearIfSelected} />
        <ConversationPanel userId={selectedUserId} />
        <div className="lg:col-span-2 xl:col-span-1">
          <InsightsPanel userId={selectedUserId} />
        </div>
      </div>
    </>
  );
}
