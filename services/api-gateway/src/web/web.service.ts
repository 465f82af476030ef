import * as fs from 'node:fs';
import * as path from 'node:path';
import fastifyStatic from '@fastify/static';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { webAppOf, type WebApp } from '@sprout/contracts';
import { CONFIG, LOGGER } from '@sprout/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ApiGatewayConfig } from '../config';
import { requestPath } from '../common/request-info';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

const APP_TITLES: Record<WebApp, string> = { public: 'Sprout', admin: 'Sprout admin console' };
const BUILD_HINTS: Record<WebApp, string> = {
  public: 'npm run build -w @sprout/web-public',
  admin: 'npm run build -w @sprout/web-admin',
};

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Single-host mode: the built web apps next to /api. Hashed assets are served immutable; a page of
 * either app (the shared `webPages` list) gets its app's index.html (no-cache) with 200, any other
 * path its app's index.html with 404 so the app renders its 404 page (under /admin the admin app,
 * elsewhere the public one), and unknown /api paths a JSON 404.
 */
@Injectable()
export class WebService implements OnModuleInit {
  private readonly dists: Record<WebApp, string>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(CONFIG) config: ApiGatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.dists = { public: path.resolve(config.webPublicDist), admin: path.resolve(config.webAdminDist) };
  }

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    for (const app of ['public', 'admin'] as const) {
      if (!fs.existsSync(path.join(this.dists[app], 'index.html'))) {
        this.logger.warn(
          { dist: this.dists[app] },
          `The ${app} web app is not built (no index.html in ${this.dists[app]}); run: ${BUILD_HINTS[app]}`,
        );
      }
    }

    // reply.sendFile comes from the first registration; the others add no decorators.
    await fastify.register(fastifyStatic, { serve: false });
    await this.serveAssets(fastify, 'public', '/assets/');
    await this.serveAssets(fastify, 'admin', '/admin/assets/');

    fastify.get('/', (request, reply) => this.sendPath(request, reply));
    fastify.get('/*', (request, reply) => this.sendPath(request, reply));
  }

  private async serveAssets(fastify: FastifyInstance, app: WebApp, prefix: string): Promise<void> {
    const root = path.join(this.dists[app], 'assets');
    if (!fs.existsSync(root)) return;
    await fastify.register(fastifyStatic, {
      root,
      prefix,
      decorateReply: false,
      index: false,
      cacheControl: false,
      setHeaders: (reply) => void reply.header('cache-control', IMMUTABLE),
    });
  }

  private async sendPath(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const urlPath = requestPath(request);
    if (urlPath === '/api' || urlPath.startsWith('/api/')) {
      return reply
        .code(404)
        .send({ statusCode: 404, error: 'Not Found', message: `Cannot ${request.method} ${urlPath}` });
    }
    const page = webAppOf(urlPath);
    if (page !== null) return this.sendIndex(reply, page, 200);
    // Not a page: a real file of the app's dist (favicon and the like), else the app's 404 page.
    const admin = urlPath === '/admin' || urlPath.startsWith('/admin/');
    const app: WebApp = admin ? 'admin' : 'public';
    const file = this.existingFile(app, admin ? urlPath.slice('/admin'.length) : urlPath);
    if (file !== null) return this.sendStaticFile(reply, app, file);
    return this.sendIndex(reply, app, 404);
  }

  /** The dist-relative path of a regular file for a URL path, or null (never escapes the dist). */
  private existingFile(app: WebApp, urlPath: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const root = this.dists[app];
    const absolute = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
    if (!absolute.startsWith(root + path.sep) || path.basename(absolute) === 'index.html') return null;
    try {
      return fs.statSync(absolute).isFile() ? path.relative(root, absolute) : null;
    } catch {
      return null;
    }
  }

  private sendStaticFile(reply: FastifyReply, app: WebApp, relative: string): FastifyReply {
    return reply
      .header('cache-control', NO_CACHE)
      .sendFile(relative, this.dists[app], { cacheControl: false });
  }

  private async sendIndex(reply: FastifyReply, app: WebApp, status: number): Promise<FastifyReply> {
    let html: Buffer | string;
    try {
      html = await fs.promises.readFile(path.join(this.dists[app], 'index.html'));
    } catch {
      html = this.notBuiltPage(app);
    }
    return reply.code(status).header('cache-control', NO_CACHE).type('text/html; charset=utf-8').send(html);
  }

  private notBuiltPage(app: WebApp): string {
    const title = escapeHtml(APP_TITLES[app]);
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
<h1>${title} is not built yet</h1>
<p>Build the web app, then reload this page: <code>${escapeHtml(BUILD_HINTS[app])}</code> (or <code>npm run build</code> for everything).</p>
</body></html>`;
  }
}
