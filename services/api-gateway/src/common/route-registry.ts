import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Every route Fastify registers (Nest controllers, health, docs, static web), as the access test
 * walks them. The hook is added when this provider is constructed, which Nest does before it
 * registers any route, so nothing is missed.
 */
@Injectable()
export class RouteRegistry {
  private readonly registered: RegisteredRoute[] = [];

  constructor(adapterHost: HttpAdapterHost) {
    const fastify = adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) this.registered.push({ method: String(method), url: route.url });
    });
  }

  get routes(): readonly RegisteredRoute[] {
    return this.registered;
  }
}
