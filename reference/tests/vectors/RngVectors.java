// Generates the test vectors for twinsim's java.util.Random and SHA1PRNG ports.
//
//   javac RngVectors.java && java RngVectors random > java_random.txt
//   javac RngVectors.java && java RngVectors sha1prng > sha1prng.txt
//
// Output: for each seed a line "seed S", then one line per call: "<op> <value>", where op names
// the call and its arguments. Doubles and floats are printed as their raw IEEE bits (hex) so that
// no decimal formatting can hide a difference.
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

public class RngVectors {
    static final int[] BOUNDS = {1, 2, 3, 4, 5, 7, 10, 16, 37, 100, 1000, 1 << 20, 1 << 30,
        (1 << 30) + 1, 1_500_000_000, Integer.MAX_VALUE};

    public static void main(String[] args) throws Exception {
        boolean sha = args.length > 0 && args[0].equals("sha1prng");
        // SecureRandom ignores setSeed(0) (it self-seeds), so seed 0 is only in the Random set.
        long[] seeds = sha
            ? new long[] {1, -1, 42, 1000, 123456789L, -987654321L, Long.MIN_VALUE, Long.MAX_VALUE}
            : new long[] {0, 1, -1, 42, 1000, 123456789L, -987654321L, Long.MIN_VALUE, Long.MAX_VALUE};
        int callsPerSeed = 1500;
        for (long seed : seeds) {
            Random rnd;
            if (sha) {
                SecureRandom s = SecureRandom.getInstance("SHA1PRNG");
                s.setSeed(seed);
                rnd = s;
            } else {
                rnd = new Random(seed);
            }
            System.out.println("seed " + seed);
            for (int i = 0; i < callsPerSeed; i++) {
                int kind = i % 24;
                if (kind < BOUNDS.length) {
                    int b = BOUNDS[kind];
                    System.out.println("nextInt(" + b + ") " + rnd.nextInt(b));
                } else if (kind == 16) {
                    System.out.println("nextInt() " + rnd.nextInt());
                } else if (kind == 17) {
                    System.out.println("nextLong() " + rnd.nextLong());
                } else if (kind == 18) {
                    System.out.println("nextBoolean() " + rnd.nextBoolean());
                } else if (kind == 19) {
                    System.out.println("nextDouble() " + Long.toHexString(Double.doubleToRawLongBits(rnd.nextDouble())));
                } else if (kind == 20) {
                    System.out.println("nextFloat() " + Integer.toHexString(Float.floatToRawIntBits(rnd.nextFloat())));
                } else if (kind == 21) {
                    System.out.println("nextInt(-5,17) " + rnd.nextInt(-5, 17));
                } else if (kind == 22) {
                    System.out.println("nextInt(-2000000000,2000000000) " + rnd.nextInt(-2000000000, 2000000000));
                } else {
                    List<Integer> list = new ArrayList<>();
                    for (int k = 0; k < 10; k++) list.add(k);
                    Collections.shuffle(list, rnd);
                    StringBuilder sb = new StringBuilder("shuffle(10)");
                    for (int v : list) sb.append(' ').append(v);
                    System.out.println(sb);
                }
            }
        }
    }
}
