// Launches the local OpenSearch node through the runner's API instead of its main():
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
// - A cluster (OPENSEARCH_NODES > 1): the runner's node-count option starts N nodes in
//   this JVM; node i gets HTTP port <http port> + i - 1, a free loopback transport port, and the
//   others' transport ports as seed hosts. With OPENSEARCH_CONTROL_PORT set, a loopback-only
//   control port stops and starts single nodes (POST /nodes/<i>/stop, POST /nodes/<i>/start,
//   GET /nodes), so a test can take a node away mid-load and bring it back on its own data.
//
// Compiled and run by scripts/opensearch/start.sh:
//   java -cp '<compiled>:lib/*' NodeLauncher <http port> <runner options...>
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.codelibs.opensearch.runner.OpenSearchRunner;

public class NodeLauncher {
  public static void main(String[] args) throws Exception {
    int httpPort = Integer.parseInt(args[0]);
    int nodes = intEnv("OPENSEARCH_NODES", 1);
    String transport = System.getenv("OPENSEARCH_TRANSPORT_PORT");
    List<Integer> transportPorts = new ArrayList<>();
    for (int i = 0; i < nodes; i++)
      transportPorts.add(
          nodes == 1 && transport != null && !transport.isEmpty()
              ? Integer.parseInt(transport)
              : freeLoopbackPort());
    List<String> seeds = new ArrayList<>();
    for (int port : transportPorts) seeds.add("127.0.0.1:" + port);
    String[] runnerArgs = Arrays.copyOfRange(args, 1, args.length);

    OpenSearchRunner runner = new OpenSearchRunner();
    // A negative maximum makes the runner take baseHttpPort + node number as it is, unprobed.
    runner.setMaxHttpPort(-1);
    runner.onBuild(
        (number, settings) -> {
          // The runner numbers its nodes from 1.
          settings.put("http.port", String.valueOf(httpPort + number - 1));
          settings.put("transport.port", String.valueOf(transportPorts.get(number - 1)));
          if (nodes > 1) settings.putList("discovery.seed_hosts", seeds);
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
    System.out.println(
        "node-launcher: "
            + nodes
            + " node(s), HTTP ports from "
            + httpPort
            + ", transport ports "
            + transportPorts);
    int controlPort = intEnv("OPENSEARCH_CONTROL_PORT", 0);
    if (controlPort > 0) control(runner, controlPort);
    while (!runner.isClosed()) Thread.sleep(5000);
  }

  static int intEnv(String name, int fallback) {
    String value = System.getenv(name);
    return value == null || value.isEmpty() ? fallback : Integer.parseInt(value);
  }

  /**
   * The control port: POST /nodes/<i>/stop closes node i (1-based) the way a crashed process
   * leaves the cluster (its shards fail over to their replicas), POST /nodes/<i>/start starts it
   * again on its own data folder, GET /nodes lists which are up. Loopback only.
   */
  static void control(OpenSearchRunner runner, int port) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.createContext(
        "/nodes",
        exchange -> {
          String[] parts = exchange.getRequestURI().getPath().split("/");
          try {
            if (parts.length == 2 && exchange.getRequestMethod().equals("GET")) {
              StringBuilder out = new StringBuilder("[");
              for (int i = 0; i < runner.getNodeSize(); i++) {
                if (i > 0) out.append(',');
                out.append(runner.getNode(i).isClosed() ? "\"down\"" : "\"up\"");
              }
              answer(exchange, 200, out.append(']').toString());
              return;
            }
            if (parts.length != 4 || !exchange.getRequestMethod().equals("POST")) {
              answer(exchange, 404, "{\"error\":\"POST /nodes/<i>/stop|start or GET /nodes\"}");
              return;
            }
            int index = Integer.parseInt(parts[2]) - 1;
            if (index < 0 || index >= runner.getNodeSize()) {
              answer(exchange, 404, "{\"error\":\"no such node\"}");
              return;
            }
            if (parts[3].equals("stop")) {
              runner.getNode(index).close();
              answer(exchange, 200, "{\"stopped\":" + (index + 1) + "}");
            } else if (parts[3].equals("start")) {
              boolean started = runner.startNode(index);
              answer(exchange, started ? 200 : 409, "{\"started\":" + started + "}");
            } else {
              answer(exchange, 404, "{\"error\":\"stop or start\"}");
            }
          } catch (Throwable e) {
            answer(exchange, 500, "{\"error\":\"" + reasons(e).replace('"', '\'') + "\"}");
          }
        });
    server.start();
    System.out.println("node-launcher: control port " + port);
  }

  static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("content-type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
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
