package org.cds.opensearch;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.opensearch.Version;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.PluginInfo;

/**
 * Starts one OpenSearch node in this JVM, with the netty4 transport (HTTP + node-to-node) and analysis-common
 * plugins loaded from the classpath. No Bootstrap: no JarHell check, no security manager, no bootstrap checks.
 *
 * Arguments are settings, each {@code -Ekey=value} (or {@code key=value}), as for the opensearch script.
 * {@code path.home} is required; its {@code config/} folder may hold a {@code log4j2.properties}.
 * SIGTERM (or SIGINT) closes the node and exits 0; a node that fails to start logs one ERROR line and exits 1.
 *
 * The same source builds against 2.x and 3.x: the plugin classes were renamed in 3.0 (Netty4Plugin ->
 * Netty4ModulePlugin, CommonAnalysisPlugin -> CommonAnalysisModulePlugin), and Node's protected constructor
 * {@code Node(Environment, Collection<...> classpathPlugins, boolean forbidPrivateIndexSettings)} takes plugin classes
 * in 2.x and PluginInfo descriptors in 3.x; both are looked up at run time.
 */
public final class Launcher {

  private static final String[][] PLUGINS = {
    {"org.opensearch.transport.Netty4ModulePlugin", "org.opensearch.transport.Netty4Plugin"},
    {"org.opensearch.analysis.common.CommonAnalysisModulePlugin", "org.opensearch.analysis.common.CommonAnalysisPlugin"},
  };

  public static void main(String[] args) throws Exception {
    Settings.Builder b = Settings.builder();
    for (String a : args) {
      String kv = a.startsWith("-E") ? a.substring(2) : a;
      int eq = kv.indexOf('=');
      if (eq <= 0) throw new IllegalArgumentException("expected -Ekey=value, got: " + a);
      b.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    Settings settings = b.build();
    String home = settings.get("path.home");
    if (home == null) throw new IllegalArgumentException("-Epath.home=... is required");
    String nodeName = settings.get("node.name", "node-1");

    Environment env = InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), null, () -> nodeName);
    LogConfigurator.setNodeName(nodeName);
    if (Files.exists(Path.of(home, "config", "log4j2.properties"))) {
      LogConfigurator.configure(env);
    } else {
      LogConfigurator.configureWithoutConfig(env.settings());
    }

    Node node;
    try {
      node = newNode(env);
    } catch (Throwable t) {
      LogManager.getLogger(Launcher.class).error("node " + nodeName + " could not be created: " + t, t);
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
    LogManager.getLogger(Launcher.class).info("started {} (OpenSearch {}, home {})", nodeName, Version.CURRENT, home);
    closed.await(); // keeps main alive until the shutdown hook has closed the node
  }

  static Node newNode(Environment env) throws Exception {
    Constructor<Node> ctor = Node.class.getDeclaredConstructor(Environment.class, Collection.class, boolean.class);
    ctor.setAccessible(true);
    Type element = ((ParameterizedType) ctor.getGenericParameterTypes()[1]).getActualTypeArguments()[0];
    boolean takesInfos = element.getTypeName().equals(PluginInfo.class.getName());
    List<Object> plugins = new ArrayList<>();
    for (String[] names : PLUGINS) {
      Class<?> c = firstClass(names);
      // As PluginsService describes a classpath plugin in 3.x.
      plugins.add(takesInfos
          ? new PluginInfo(c.getName(), "classpath plugin", "NA", Version.CURRENT, "1.8", c.getName(), null, List.of(), false)
          : c);
    }
    try {
      return ctor.newInstance(env, plugins, true);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception ex ? ex : e;
    }
  }

  private static Class<?> firstClass(String[] names) throws ClassNotFoundException {
    for (String n : names) {
      try {
        return Class.forName(n);
      } catch (ClassNotFoundException e) {
        // the other name
      }
    }
    throw new ClassNotFoundException(String.join(" or ", names));
  }
}
