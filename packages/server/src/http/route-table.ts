/**
 * The API's route patterns, to tell "no such path" (404) from "no such method on this path" (405), which
 * Fastify's router does not distinguish.
 */
export class RouteTable {
  private readonly routes: Array<{ methods: string[]; pattern: RegExp }> = [];

  add(method: string | string[], url: string): void {
    const methods = (Array.isArray(method) ? method : [method]).map((m) => m.toUpperCase());
    const source = url
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    this.routes.push({ methods, pattern: new RegExp(`^${source}/?$`) });
  }

  /** True when the path exists with other methods than `method`. */
  otherMethods(method: string, path: string): boolean {
    return this.routes.some((route) => route.pattern.test(path) && !route.methods.includes(method.toUpperCase()) && !route.methods.includes('OPTIONS'));
  }
}
