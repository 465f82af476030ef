import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { PlatformModule } from '@sprout/platform';
import { MessagesModule } from './messages/messages.module';
import { UsersModule } from './users/users.module';
import { AuthModule } from './auth/auth.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { CommonModule } from './common/common.module';
import type { ApiGatewayConfig } from './config';
import { DashboardModule } from './dashboard/dashboard.module';
import { DeliveryCheckModule } from './delivery-check/delivery-check.module';
import { GardenCalendarModule } from './garden-calendar/garden-calendar.module';
import { GardeningToolsModule } from './gardening-tools/gardening-tools.module';
import { ImagesModule } from './images/images.module';
import { ModelsModule } from './models/models.module';
import { MonitoringModule } from './monitoring/monitoring.module';
import { PublicConfigModule } from './public-config/public-config.module';
import { WaitlistModule } from './waitlist/waitlist.module';
import { SimulatorModule } from './simulator/simulator.module';
import { SurveysModule } from './surveys/surveys.module';
import { WebModule } from './web/web.module';

export const SERVICE_NAME = 'api-gateway';

@Module({})
export class AppModule {
  static forRoot(config: ApiGatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ name: SERVICE_NAME, config }),
        CommonModule,
        AuthModule,
        WaitlistModule,
        DashboardModule,
        DeliveryCheckModule,
        UsersModule,
        MessagesModule,
        ModelsModule,
        PublicConfigModule,
        GardeningToolsModule,
        SimulatorModule,
        SurveysModule,
        GardenCalendarModule,
        ImagesModule,
        MonitoringModule,
        WebModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
