import { Card, CardContent, CardDescription, CardHeader, CardTitle, LoadingText } from '@sprout/ui';
import { Smartphone } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAuthStatus } from '../hooks/useAuthStatus';

/** The compact chat for one test user (spec 001): checks the admin session first. */
export default function MobileConversationPage() {
  const { userId } = useParams();
  const { data: auth, isPending } = useAuthStatus();
  const navigate = useNavigate();
  const signedOut = auth !== undefined && !auth.authenticated;

  useEffect(() => {
    if (signedOut) void navigate('/admin/login', { replace: true });
  }, [signedOut, navigate]);

  if (isPending) return <LoadingText>Loading...</LoadingText>;
  if (signedOut) return <LoadingText>Redirecting to login...</LoadingText>;

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-4 p-4">
      <title>Mobile chat · Sprout Admin</title>
      <Card>
        <CardHeader>
          <CardTitle asChild className="flex items-center gap-2">
            <h1>
              <Smartphone className="size-5 text-primary" aria-hidden="true" />
              Mobile chat
            </h1>
          </CardTitle>
          <CardDescription>Test user {userId}</CardDescription>
        </CardHeader>
        <CardContent className="text-sm text-muted-foreground">
          The compact chat for this test user arrives with Conversation Testing: the conversation, a message
          box, and the user&apos;s analytics and profile.
        </CardContent>
      </Card>
    </main>
  );
}
