import { Module } from '@nestjs/common';
import { WebService } from './web.service';

/** Serves the built web apps (web-public, web-admin) in single-host mode. */
@Module({ providers: [WebService] })
export class WebModule {}
