package org.cds.opensearch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * Starts one OpenSearch node in this JVM, with the netty4 transport (HTTP + node-to-node) and analysis-common
 * plugins loaded from the classpath. No Bootstrap: no JarHell check, no security manager, no bootstrap checks.
 *
 * Arguments are settings, each {@code -Ekey=value} (or {@code key=value}), as for the opensearch script.
 * {@code path.home} is required; its {@code config/} folder may hold a {@code log4j2.properties}.
 * SIGTERM (or SIGINT) closes the node and exits 0.
 */
public final class Launcher {

  /** The protected constructor that takes classpath plugins; public {@code Node(Environment)} takes none. */
  static final class LocalNode extends Node {
    LocalNode(Environment env, Collection<Class<? extends Plugin>> plugins) {
      super(env, plugins, true);
    }
  }

  public static void main(String[] args) throws Exception {
    Settings.Builder b = Settings.builder();
    for (String a : args) {
      String kv = a.startsWith("-E") ? a.substring(2) : a;
      int eq = kv.indexOf('=');
      if (eq <= 0) throw new IllegalArgumentException("expected -Ekey=value, got: " + a);
      b.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    Settings settings = b.build();
    if (settings.get("path.home") == null) throw new IllegalArgumentException("-Epath.home=... is required");
    String nodeName = settings.get("node.name", "node-1");

    Environment env = InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), null, () -> nodeName);
    LogConfigurator.setNodeName(nodeName);
    if (Files.exists(env.configFile().resolve("log4j2.properties"))) {
      LogConfigurator.configure(env);
    } else {
      LogConfigurator.configureWithoutConfig(env.settings());
    }

    List<Class<? extends Plugin>> plugins = List.of(Netty4Plugin.class, CommonAnalysisPlugin.class);
    Node node;
    try {
      node = new LocalNode(env, plugins);
    } catch (Throwable t) {
      LogManager.getLogger(Launcher.class).error("node " + nodeName + " could not be created", t);
      System.exit(1);
      return;
    }
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        node.close();
        node.awaitClose(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        e.printStackTrace();
      } finally {
        closed.countDown();
      }
    }, "cds-opensearch-shutdown"));
    try {
      node.start();
    } catch (Throwable t) { // e.g. a port in use: one ERROR line saying so, then exit 1 (the hook closes the node)
      LogManager.getLogger(Launcher.class).error("node " + nodeName + " failed to start: " + t, t);
      System.exit(1);
    }
    Path home = env.configFile().getParent();
    System.out.println("started " + nodeName + " (home " + home + ")");
    closed.await(); // keeps main alive until the shutdown hook has closed the node
  }
}
