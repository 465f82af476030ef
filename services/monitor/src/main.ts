import 'reflect-metadata';
import { monitor } from './app';

monitor.main();
