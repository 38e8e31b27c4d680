/**
 * Model names the price table misses, mapped to a model it prices at the same price. A name is mapped only where the
 * price is the same; otherwise it stays unknown (`qwen3-coder-plus`: docs/library.md "Prices and costs"), and a user
 * override file can price it. Each row's `checked` is the target's price when the row was written: a test fails
 * when the table's price for it drifts.
 */
export interface PriceAlias {
  /** A stable id, `alias:<name>`. */
  readonly id: string;
  /** The name a CLI reports (compared without case, after any `provider/` prefix). */
  readonly name: string;
  /** The priced model and its provider in the table. */
  readonly model: string;
  readonly provider: string;
  /** The target's price per million tokens when the row was checked. */
  readonly checked: { readonly input: number; readonly output: number; readonly cache_read?: number };
  /** Why the two cost the same. */
  readonly why: string;
  /** The pages the vendor's list price was checked on, and when. */
  readonly checkedOn: { readonly date: string; readonly pages: readonly string[] };
}

export const priceAliases: readonly PriceAlias[] = [
  {
    id: 'alias:gemini-3.1-pro',
    name: 'gemini-3.1-pro',
    model: 'gemini-3.1-pro-preview',
    provider: 'google',
    checked: { input: 2, output: 12, cache_read: 0.2 },
    why:
      "Google's one published Gemini 3.1 Pro price is the preview's: $2 in, $12 out, $0.20 cached per million up " +
      'to 200k prompt tokens, $4 / $18 above; the table has the preview at it',
    checkedOn: {
      date: '2026-12-05',
      // Google's own page (ai.google.dev/gemini-api/docs/pricing) was not among the stored pages; these quote it.
      pages: [
        'https://www.morphllm.com/gemini-api-pricing',
        'https://blog.laozhang.ai/en/posts/gemini-3-1-pro-preview-free-api',
        'https://cloudprice.net/models/vertex_ai%2Fgemini-3.1-pro-preview?priceUnit=1m',
      ],
    },
  },
  {
    id: 'alias:glm-4.6',
    name: 'glm-4.6',
    model: 'z-ai/glm-4.5',
    provider: 'openrouter',
    checked: { input: 0.6, output: 2.2, cache_read: 0.11 },
    why:
      "Z.AI lists GLM-4.6 at GLM-4.5's price ($0.6 in, $0.11 cached, $2.2 out); the table has GLM-4.5 at it. Only a " +
      "bare name comes here: `openrouter/z-ai/glm-4.6` is the table's own OpenRouter row ($0.43 / $1.74)",
    checkedOn: {
      date: '2026-12-05',
      // Z.AI's own page (docs.z.ai/guides/overview/pricing) was not among the stored pages; these quote it.
      pages: [
        'https://www.pipellm.ai/llms/models/glm-4.6.md',
        'https://www.getmaxim.ai/bifrost/llm-cost-calculator/provider/zai/model/glm-4.6.md',
      ],
    },
  },
];

/** The alias row for `name` (a CLI's model name, with or without a `provider/` prefix), if any. */
export function aliasOf(name: string): PriceAlias | undefined {
  const bare = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  return priceAliases.find((alias) => alias.name === bare);
}
