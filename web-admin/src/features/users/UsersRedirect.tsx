import { Navigate, useLocation } from 'react-router';

/** /users?search=... (the Messages screen's phone link) is the Users screen, query kept. */
export default function UsersRedirect() {
  const { search, hash } = useLocation();
  return <Navigate to={`/admin/users${search}${hash}`} replace />;
}
