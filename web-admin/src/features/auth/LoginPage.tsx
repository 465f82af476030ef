import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  LoadingText,
  serverMessage,
  toast,
} from '@sprout/ui';
import { ArrowLeft, Sprout } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TextField } from '../../components/FormField';
import { authStatusQuery, loginMutation } from './queries';
import { loginToasts } from './texts';

const FIELDS = [
  { name: 'username', label: 'Username', type: 'text', autoComplete: 'username' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
] as const;

export default function LoginPage() {
  const { data: auth, isPending } = useQuery(authStatusQuery);
  const login = useMutation(loginMutation(useQueryClient()));
  const navigate = useNavigate();
  const [credentials, setCredentials] = useState({ username: '', password: '' });
  const username = credentials.username.trim();
  const { password } = credentials;

  if (isPending) return <LoadingText>Loading...</LoadingText>;
  if (auth?.authenticated && !login.isSuccess) return <Navigate to="/admin/dashboard" replace />;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!username || !password) {
      toast(loginToasts.missing);
      return;
    }
    login.mutate(
      { body: { username, password } },
      {
        onSuccess: () => {
          toast(loginToasts.success);
          void navigate('/admin/dashboard', { replace: true });
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: loginToasts.failure.title,
            description: serverMessage(error, loginToasts.failure.fallback),
          });
        },
      },
    );
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-b from-secondary/70 to-background p-4">
      <title>Admin Login · Sprout</title>
      <div className="flex w-full max-w-md flex-col gap-4">
        <Card>
          <CardHeader className="items-center text-center">
            <span className="flex size-12 items-center justify-center rounded-xl bg-primary text-primary-foreground">
              <Sprout className="size-7" aria-hidden="true" />
            </span>
            <h1 className="mt-2 text-2xl font-semibold tracking-tight">Admin Login</h1>
            <CardDescription>Sign in to the Sprout admin console.</CardDescription>
          </CardHeader>
          <CardContent>
            <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="login-form">
              {FIELDS.map(({ name, ...field }) => (
                <TextField
                  key={name}
                  id={name}
                  name={name}
                  {...field}
                  aria-required="true"
                  value={credentials[name]}
                  onValueChange={(value) => setCredentials((current) => ({ ...current, [name]: value }))}
                />
              ))}
              <Button type="submit" size="lg" disabled={login.isPending}>
                {login.isPending ? 'Signing in...' : 'Sign in'}
              </Button>
            </form>
          </CardContent>
        </Card>
        <a
          href="/"
          className="flex items-center justify-center gap-2 rounded-md text-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to home
        </a>
      </div>
    </main>
  );
}
