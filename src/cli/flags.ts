import { Option, type Command } from 'commander';
import { UsageError } from '../runtime/errors';

/**
 * Flags, declared once (docs/architecture.md "Flags"). A verb's flag table is the one place a flag is written: its
 * commander option is made from the entry (`addFlags`), and its parse step's types from the same entry (`FlagsOf`),
 * as gh binds each flag straight into its options struct. The key is commander's name for the value (the camel-cased
 * long flag, `x` for `--no-x`); `addFlags` refuses an entry whose key is not, so the two cannot drift.
 */
export interface FlagSpec {
  /** Commander's flags: `-y, --yes`, `--expected-epoch <epoch>`, `--tag <t...>`, `--no-cache`. */
  readonly flags: string;
  readonly description?: string;
  /** A `<value>` flag given more than once collects its values into a list (`--metadata a=1 --metadata b=2`). */
  readonly repeat?: boolean;
  readonly choices?: readonly string[];
  /** Choices shown in help and completion but left to the parse step to check, so its message can explain. */
  readonly shownChoices?: readonly string[];
  readonly default?: string | boolean;
  /** Accepted and left out of help. */
  readonly hidden?: boolean;
  /** The value a flag given without one sets (`--debug=api` sets `debug` to "api"). */
  readonly preset?: string;
  /** The option value's name, where it is not the one the flags give (a hidden spelling of another flag). */
  readonly attribute?: string;
  /** Commander refuses the two together (exit 2): the other flag's name. */
  readonly conflicts?: string;
  /** Commander refuses the command without it (exit 2), as `requiredOption` does. */
  readonly required?: boolean;
}

/** A verb's flag table: commander's name for each value → how the flag is declared. */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** Commander's variadic `<v...>`; `<status,...>` is one comma-separated value (commander wants a word character before the dots). */
type Variadic<S extends string> = S extends `${string},...>` | `${string},...]` ? false : S extends `${string}...>` | `${string}...]` ? true : false;

/** What commander hands over for a flag: a repeated or variadic value a list, a `<value>` a string, a switch a boolean. */
type ValueOf<F extends FlagSpec> = F['repeat'] extends true
  ? string[]
  : Variadic<F['flags']> extends true
    ? string[]
    : F['flags'] extends `${string}<${string}>`
      ? string
      : F['flags'] extends `${string}[${string}]`
        ? string | true
        : F['preset'] extends string
          ? string
          : boolean;

/** A verb's flags as commander parsed them, before its parse step types them. */
export type Flags = Record<string, unknown>;

/** A verb's flags, typed by its table, for its parse step. */
export type FlagsOf<T extends FlagTable> = Flags & { readonly [K in keyof T]?: ValueOf<T[K]> };

/** A flag table, its entries' literal flags kept for `FlagsOf`. */
export const flagTable = <const T extends FlagTable>(table: T): T => table;

/** Commander collector for a repeatable flag (`--file A --file B`). */
const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** The commander option an entry declares; `key`, when given, must be the name commander files its value under. */
export function optionOf(spec: FlagSpec, key?: string): Option {
  const o = new Option(spec.flags, spec.description);
  if (spec.attribute !== undefined) o.attributeName = () => spec.attribute!;
  if (key !== undefined && o.attributeName() !== key)
    throw new Error(`flag table entry "${key}" declares ${spec.flags}, whose value commander names "${o.attributeName()}"`);
  if (spec.repeat) o.argParser(collect);
  if (spec.choices) o.choices(spec.choices);
  if (spec.shownChoices) o.argChoices = [...spec.shownChoices];
  if (spec.default !== undefined) o.default(spec.default);
  if (spec.hidden) o.hideHelp();
  if (spec.preset !== undefined) o.preset(spec.preset);
  if (spec.conflicts !== undefined) o.conflicts(spec.conflicts);
  if (spec.required) o.makeOptionMandatory();
  return o;
}

/** Options made by `addFlags`: the architecture test checks every option of the tree is one of them. */
export const DECLARED = new WeakSet<Option>();

/** Declares a table's flags (or a list of entries, for flags made from data such as a manifest's filters) on `cmd`. */
export function addFlags(cmd: Command, table: FlagTable | readonly FlagSpec[]): Command {
  const entries: Array<[string | undefined, FlagSpec]> = Array.isArray(table)
    ? (table as readonly FlagSpec[]).map((s) => [undefined, s])
    : Object.entries(table as FlagTable);
  for (const [key, spec] of entries) {
    const o = optionOf(spec, key);
    DECLARED.add(o);
    cmd.addOption(o);
  }
  return cmd;
}

/** The name commander files an entry's value under (for entries made from data, read back by their flags). */
export const flagName = (spec: FlagSpec): string => optionOf(spec).attributeName();

/** An entry's long flag (`--created-after`), for messages. */
export const longFlag = (spec: FlagSpec): string => optionOf(spec).long ?? spec.flags;

/** At most one of these flags (given as `--name` → opts key); with `required`, exactly one. Exit 2 otherwise. */
export function oneOf(opts: Flags, flags: Record<string, string>, required = false): string | undefined {
  const given = Object.entries(flags).filter(([, key]) => opts[key] !== undefined && opts[key] !== false);
  const names = Object.keys(flags).join(' or ');
  if (given.length > 1) throw new UsageError(`${given.map(([f]) => f).join(' and ')} cannot be used together`);
  if (required && given.length === 0) throw new UsageError(`give ${names}`);
  return given[0]?.[0];
}
