import { Badge, Button, serverMessage, toast } from '@sprout/ui';
import { LogOut, UserRound } from 'lucide-react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authStatusQuery, logoutMutation } from '../features/auth/queries';

export function AdminUserBadge() {
  const { data: auth } = useQuery(authStatusQuery);
  const signOut = useMutation(logoutMutation(useQueryClient()));
  const navigate = useNavigate();

  function onSignOut() {
    signOut.mutate(
      {},
      {
        onSuccess: () => {
          void navigate('/admin', { replace: true });
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error',
            description: serverMessage(error, 'Failed to sign out.'),
          }),
      },
    );
  }

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-border bg-card p-3">
      <div className="flex min-w-0 items-center gap-2">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
          <UserRound className="size-4" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <p className="truncate text-sm font-medium" data-testid="admin-username">
            {auth?.user?.username ?? 'Admin'}
          </p>
          <Badge variant="secondary" className="mt-0.5">
            Admin
          </Badge>
        </div>
      </div>
      <Button variant="outline" size="sm" onClick={onSignOut} disabled={signOut.isPending}>
        <LogOut aria-hidden="true" />
        Sign out
      </Button>
    </div>
  );
}
