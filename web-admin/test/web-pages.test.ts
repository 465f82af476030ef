import { webAppOf, webPages } from '@sprout/contracts';
import { matchRoutes, type RouteObject } from 'react-router';
import { routes } from '../src/app/routes';

/** Every path the admin router names, children included. */
function routerPaths(list: RouteObject[]): string[] {
  return list.flatMap((route) => [...(route.path ? [route.path] : []), ...routerPaths(route.children ?? [])]);
}

function routeFor(path: string) {
  const matches = matchRoutes(routes, path) ?? [];
  return matches[matches.length - 1]?.route.path;
}

// The api-gateway answers 404 for any path not in webPages: the list and the router must agree.
describe('the shared page list', () => {
  it('names every page of the admin router', () => {
    const missing = routerPaths(routes).filter(
      (p) => p !== '*' && !(webPages.admin as readonly string[]).includes(p),
    );
    expect(missing).toEqual([]);
  });

  it('has only pages the admin router has (not its 404 page)', () => {
    for (const page of webPages.admin) {
      expect([page, routeFor(page.replace(/:[^/]+/g, 'some-id'))]).toEqual([page, page]);
    }
  });

  it('tells pages from other paths', () => {
    expect(webAppOf('/admin/users')).toBe('admin');
    expect(webAppOf('/admin/users/')).toBe('admin');
    expect(webAppOf('/mobile-conversation/abc')).toBe('admin');
    expect(webAppOf('/consent')).toBe('public');
    expect(webAppOf('/admin/nope')).toBeNull();
    expect(webAppOf('/mobile-conversation/')).toBeNull();
    expect(webAppOf('/mobile-conversation/a/b')).toBeNull();
  });
});
