// The client imports the error advice texts with import() on the first error response. Under vitest the first
// import() of a module goes through its transform pipeline, which takes an unpredictable number of event-loop turns;
// loading the module once up front keeps the fake-timer tests about the retry schedule, not about module loading.
import '../../src/internal/error-hints';
