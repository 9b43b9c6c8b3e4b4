// Launches the local OpenSearch node through the runner's API instead of its main() (issue 12):
//
// - The runner's command line looks for an HTTP port only from -baseHttpPort up to a built-in
//   maximum of 9299 (no option raises it), so 9350 or 31001 made it throw and exit. Here the
//   node's ports are set by us: http.port is exactly the asked port, and transport.port is
//   OPENSEARCH_TRANSPORT_PORT or a free loopback port chosen now (not the first free one from
//   9300, which a node on a port in 9300-9400 could collide with).
// - The runner's main() catches every exception and exits 1 printing nothing, so the log ended
//   in "Closed all nodes." with no reason. Here the failure and its causes are printed, ending
//   with one line starting "node-launcher: failed:" that start.sh shows on the console.
//
// Compiled and run by scripts/opensearch/start.sh:
//   java -cp '<compiled>:lib/*' NodeLauncher <http port> <runner options...>
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.codelibs.opensearch.runner.OpenSearchRunner;

public class NodeLauncher {
  public static void main(String[] args) throws Exception {
    int httpPort = Integer.parseInt(args[0]);
    String transport = System.getenv("OPENSEARCH_TRANSPORT_PORT");
    int transportPort =
        transport == null || transport.isEmpty() ? freeLoopbackPort() : Integer.parseInt(transport);
    String[] runnerArgs = Arrays.copyOfRange(args, 1, args.length);

    OpenSearchRunner runner = new OpenSearchRunner();
    // A negative maximum makes the runner take baseHttpPort + node number as it is, unprobed.
    runner.setMaxHttpPort(-1);
    runner.onBuild(
        (number, settings) -> {
          settings.put("http.port", String.valueOf(httpPort));
          settings.put("transport.port", String.valueOf(transportPort));
        });
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(runner)));
    try {
      runner.build(runnerArgs);
    } catch (Throwable e) {
      e.printStackTrace();
      System.err.println("node-launcher: failed: " + reasons(e));
      System.err.flush();
      Runtime.getRuntime().halt(1); // the shutdown hook would only print "Closed all nodes."
    }
    System.out.println("node-launcher: HTTP port " + httpPort + ", transport port " + transportPort);
    while (!runner.isClosed()) Thread.sleep(5000);
  }

  /** The messages of an exception and its causes, outermost first, on one line. */
  static String reasons(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (out.length() > 0) out.append(": ");
      out.append(t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName());
    }
    return out.toString();
  }

  static int freeLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  static void closeQuietly(OpenSearchRunner runner) {
    try {
      if (!runner.isClosed()) runner.close();
    } catch (IOException e) {
      System.err.println("node-launcher: close failed: " + e.getMessage());
    }
  }
}
