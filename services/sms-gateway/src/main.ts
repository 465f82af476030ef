import 'reflect-metadata';
import { smsGateway } from './app';

smsGateway.main();
