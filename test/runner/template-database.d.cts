export declare const TEMPLATE_DATABASE_VARIABLE: string;
export declare function createTemplate(): Promise<string>;
export declare function databasePrefix(): string;
export declare function dropTemplate(url: string): void;
