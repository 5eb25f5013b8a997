/** A JSON object read or built loosely: members by name, values checked where they are used. */
export type Json = Record<string, unknown>;
